// Package roo reads Roo Code's tasks: one folder per task in the VS Code
// extension's storage, <storage>/tasks/<task id>/, holding ui_messages.json
// (the messages the extension shows, a JSON array rewritten whole) and
// api_conversation_history.json (not read).
//
// Roo Code cannot be run here (a VS Code extension); this is read from its
// published source (RooCodeInc/Roo-Code). What it promises:
//
//   - The list is what Roo Code itself shows (getLatestTodo): the todos of
//     the newest message that is an `ask: "tool"` or a `say:
//     "user_edit_todos"` whose text is {"tool": "updateTodoList", "todos":
//     [{id, content, status}]} — the update_todo_list tool's and the
//     user's own edits alike. Statuses pending, in_progress, completed.
//   - Each message's ts (milliseconds) dates it; the first message, the
//     task's text, is the (weak) title; the newest whole message says whose
//     turn it is: an ask waits for the user (a question, an approval, the
//     finished task's result), a say is work.
//   - The document is read as a stream, a message at a time, so a long task
//     is read in the memory of its largest message.
package roo
