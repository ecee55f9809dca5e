// Package qwen reads Qwen Code's sessions (0.24.4) from its runtime
// directory: QWEN_RUNTIME_DIR, else the settings' advanced.runtimeOutputDir,
// else QWEN_HOME, else ~/.qwen (Storage.getRuntimeBaseDir).
//
//   - todos/<sessionId>.json is the list: todo_write's {planId, todos: [{id,
//     content, status pending|in_progress|completed, blockedBy}], sessionId},
//     rewritten whole on every call (LayoutWhole). An item dropped is left
//     out (there is no cancelled); [] clears the list. todo_write is opt-in
//     (settings tools.todoWrite.enabled).
//   - projects/<slug>/chats/<sessionId>.jsonl is the chat record (a log):
//     the session's cwd and title (the first prompt, weak; a custom_title
//     system line), whose turn it is (an assistant message with no
//     functionCall ends it), and its runtime progress (each functionCall a
//     call of the runtime list, through package toolrun; its tool_result
//     finishes it, failed when its status is error). The record repeats
//     each todo_write's list, but the list is the todo file's: the record
//     makes none, so the two never show the list twice. Telemetry and
//     attribution lines are passed over from their first bytes.
//
// Sub-agents' records (projects/<slug>/subagents/) are not read: Qwen
// offers them no todo_write.
package qwen
