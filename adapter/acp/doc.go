// Package acp reads the Agent Client Protocol: the JSON-RPC lines an agent
// (gemini --acp, claude-code-acp, codex-acp, …) writes to its client. ACP is
// a stream with no home on disk, so the adapter has no roots and matches no
// file; it serves `tally normalize` and `tally follow`, which read a stream,
// and recognises one (Sniff) by its "jsonrpc" envelope.
//
// What it promises:
//
//   - A `plan` session/update is the agent's own list and a full replacement
//     ("the client replaces the entire plan"): an EventSnapshot of the main
//     list, entry content as the title, priority and status kept. A status
//     ACP does not define is kept as the agent's word (StatusUnknown).
//   - `tool_call` / `tool_call_update` are runtime progress — facts about
//     tools the runtime ran, not work the model planned. They are a
//     separate projection and never enter the model's list: they go to the
//     list tally.RuntimeList, one SourceTask item per toolCallId.
//     Each such update is emitted as a create (deduplicated by toolCallId, so
//     a re-read line or a second announcement adds nothing) followed by an
//     update carrying the fields the line states. ACP says an update may
//     arrive for any announced call and carries only what changed; the pair
//     makes that an upsert, so an update whose announcement was not seen
//     (the stream was joined late) still shows up instead of being an
//     orphan. The tool call inside a `session/request_permission` request
//     counts as an announcement: it is the agent saying the call exists,
//     and Gemini CLI 0.61.0 announces its calls no other way.
//   - A tool call whose rawInput holds a `todos` array (write_todos,
//     TodoWrite forwarded as a tool), or whose content holds the list as
//     text (see contentTodos), is also read as a snapshot of the main list,
//     since some agents send no `plan` for it. A call counts once it
//     succeeds: the rawInput list is shown when the call is announced and
//     taken back when an update says the call failed (EventCallFailed).
//     Gemini CLI 0.61.0 over ACP
//     carries neither, so for it the list is not recoverable: only the
//     runtime items "Set N todo(s)" show.
//   - `agent_message_chunk` text is scanned for progress markers
//     ("progress: T001.S1 done", package marker).
//     Chunks split text anywhere, so the unfinished last line is held (in
//     State, bounded by marker.MaxHeld) until its newline arrives or the
//     message ends — any line that is not another chunk.
//   - params.sessionId is the session. A request for permission is the
//     agent asking its user (SignalAsking); the response that ends a prompt
//     turn (it has a stopReason) hands the turn to the user.
//   - Each tool_call (not its updates) is fingerprinted from its title and
//     raw input (EventToolCall), to tell an agent calling the same thing
//     again and again.
//   - Client→agent requests and responses carry nothing about progress and
//     are ignored. A line that is not a JSON-RPC object, or a session/update
//     without its update, is a *tally.Error with CodeInvalid.
package acp
