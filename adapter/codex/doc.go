// Package codex reads the logs of OpenAI's Codex CLI: the rollout files it
// keeps under $CODEX_HOME/sessions (and archived_sessions), and the event
// stream of `codex exec --json`. One decoder reads both, deciding per line.
//
// What it promises:
//
//   - A plan (update_plan) is applied only once Codex has accepted it. Codex
//     parses the call's arguments strictly and answers an invalid plan with
//     "failed to parse function arguments: …", leaving its plan unchanged;
//     so the call is held, keyed by call_id, until its function_call_output
//     arrives, and dropped if that output is an error. A held call survives a
//     restart in the decoder's State. A call whose output never comes (Codex
//     killed mid-call) is never applied: Codex did not confirm it either.
//   - The exec stream's todo_list carries only a completed boolean, so every
//     item not completed is shown pending and marked Lossy: it may be in
//     progress.
//   - Turn end keeps the final list as it is, rather than marking every
//     item completed: a list the agent left unfinished is information.
//   - Progress markers are read from the assistant's output_text in
//     response items only (Codex copies each reply into an event_msg
//     too), and from completed agent_message items of the exec stream.
//   - Activity (last time, whose turn) is read from the newest lines only
//     (tally.Recenter), so Line stays cheap. An approval request or a
//     request for the user's input is the agent asking (SignalAsking).
//   - A plan proposed in Plan mode (its plan item) is shown as a list of its
//     own, tally.ProposalList, apart from update_plan's, and the session asks
//     its user from the end of that turn until a turn starts outside Plan
//     mode, which settles and clears it (proposal.go).
//   - Every tool call of a rollout (function_call, custom_tool_call,
//     local_shell_call) is fingerprinted from its name and the bytes of its
//     arguments as written, unparsed (EventToolCall); the calls of lines
//     before the window the indexer sets (tally.CallWindow) are passed
//     over. The exec stream's items are not fingerprinted: it is read by
//     normalize and follow, which show lists, not conditions.
//
// Why it is shaped so: rollout files are mostly large response_item lines
// (reasoning, tool output) that say nothing about the plan. Codex writes
// its JSON with serde, compact and in declaration order, so a line's type,
// its payload's type and the small keys that identify it (name, call_id,
// role) sit in its first few hundred bytes: Line decides from that head and
// parses with fastjson only the few lines it selects. A line whose head is
// laid out otherwise falls back to a scan of the whole line for exact
// needles, found by their rarer '_' byte. Quotes are part of every needle,
// so the same words inside a JSON string (escaped as \") do not match.
package codex
