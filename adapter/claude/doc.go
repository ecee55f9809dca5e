// Package claude reads Claude Code's session transcripts
// (<config>/projects/<slug>/<sessionId>.jsonl, sub-agents' own
// <sessionId>/subagents/agent-<id>.jsonl) and the stream-json output of
// `claude -p --output-format stream-json`, and turns them into tally events:
// TodoWrite snapshots, TaskCreate/TaskUpdate edits, task ids from results,
// TaskList resyncs, and the session's project, title and activity. It also
// reads the Task tools' own state, <config>/tasks/<list>/<id>.json, as a
// list kept in a directory (tally.DirectoryReader): what the files hold
// now is the list, whichever sessions wrote it.
//
// What it promises:
//   - Every line is read, but most are never parsed: one look at a line's
//     bytes tells whose message it holds and, for the assistant's, reads
//     its content block by block without parsing it; then a prefilter
//     picks the few lines that can matter (a todo/task tool call, a result
//     of a call still waiting for its answer, a title, a legacy sidechain
//     line, the first lines carrying the start time, cwd, prompt and the
//     tools offered, a text block that may hold a marker). Transcripts are
//     mostly tool output and text, and the fold must keep up with them
//     live: the look costs a fraction of a JSON parse, and a line of tool
//     results, an attachment or a request log costs it only the look at
//     its first nested object.
//   - Progress markers are read from the text blocks of assistant lines
//     that hold "progress:", placed at the line, so reading the line
//     again gives the same markers.
//   - Every tool call of the agent's own assistant lines is fingerprinted
//     from its name and input bytes, unparsed (EventToolCall), so that
//     repeated calls are told; the blocks relayed inside other lines (API
//     request logs, stream events, progress relays) are not the agent's
//     calls and are passed over. A reply that ends its turn on a question
//     asks the user (SignalAsking).
//   - Each list is one agent's: the main agent is "", a sub-agent is its
//     agentId, and in 1.0.x transcripts (sidechains in the same file, no
//     agentId) the uuid of the sidechain's root line.
//   - A task id is taken only from the result of the call that created the
//     task; nothing is guessed. Its subject and description are the ones
//     that result says Claude Code saved, where it says (2.1.x repairs a
//     call before running it: a "title" for the subject, a subject taken
//     from the description or the other way round). The decoder remembers which list calls
//     await a result (bounded) so a TaskGet result is never read as a create.
//   - A call counts once its result says it succeeded: a TodoWrite,
//     TaskCreate or TaskUpdate whose tool_result is an error (is_error: the
//     tool rejected its input, InputValidationError) or whose result says
//     {"success":false} changed nothing, and the fold takes it back
//     (EventCallFailed). The call is shown as soon as it is read, its
//     result following within moments (a hook called in between sees it);
//     a call whose input cannot be read is reported only if its result
//     says it succeeded, since Claude Code rejects it too.
//   - A line not shaped like a JSON object ('{' … '}') is malformed, which
//     costs a look at two bytes: random bytes are counted, not passed over.
//   - A selected line that is not valid JSON is returned as a *tally.Error
//     (CodeInvalid) and changes nothing; the decoder never panics. Text
//     that is not valid UTF-8 is passed on as it is, for the fold to
//     repair and report: one bad byte does not cost a list.
//   - A task list's directory is read whole whenever one of its files
//     changes; a file Claude Code itself would refuse (no id, subject or
//     status) is reported and left out, a file still empty is one being
//     created. <list> is the session's id unless CLAUDE_CODE_TASK_LIST_ID
//     (or an agent team) names a list several sessions share: a list not
//     named as a session id (a UUID) is FileInfo.Shared. No transcript
//     names the list, so which sessions use it is found by the indexer
//     from the tasks their TaskList answers show.
//
// The session started at the time of the file's first line that has one:
// not at its first todo, nor at the newest lines read for activity.
//
// Everything the decoder must remember between reads (pending calls, the
// sidechain map, whether start, cwd and title were found) is its State, so a
// restart resumes where the saved offset ends.
package claude
