// Package gemini reads what Gemini CLI writes — its chat records under
// <home>/tmp/<projectId>/chats/ (the append-only .jsonl, the legacy whole
// .json, sub-agents' chats/<parentSessionId>/<sessionId>.jsonl) and the
// output of `gemini -p --output-format stream-json` — and turns them into
// tally events: write_todos snapshots, tracker_* task resyncs, and the
// session's title, project and activity.
//
// What it promises:
//   - The list shown is what the latest write_todos that ran said. In
//     stream-json a call counts once its tool_result says success; in a
//     chat record, a call whose status is success, in a message that
//     still exists after the record's own edits: a message written again
//     replaces the earlier one whole (its todos too, even under the same
//     call id), {"$rewindTo":id} removes it and all after
//     it (the list goes back to the latest surviving call, or empty), and
//     {"$set":{"messages":…}} replaces every message before it. In such a
//     checkpoint (Gemini CLI 0.61 writes one when a session is resumed)
//     the calls may be functionCall parts of the content instead of
//     toolCalls: a write_todos call counts there once a functionResponse
//     answered it without an error. The
//     decoder keeps in its State just the message order and the lists
//     needed for that, bounded, so a restart resumes exactly.
//   - In stream-json the task tracker's calls carry neither the ids they
//     make nor the list: after each successful one, the tracker's own task
//     files (tmp/<projectId>/<sessionId>/tracker/) are read as a full
//     resync; where they cannot be found, the tasks the stream saw created
//     are listed by title.
//   - Progress markers are read from replies (gemini records; stream-json
//     assistant deltas, joined). A reply written again under its id keeps
//     the place it was first written at, so its markers are given once.
//   - Every tool call is fingerprinted from its name and the bytes of its
//     arguments, unparsed (EventToolCall): a chat record's toolCalls, once
//     per call id however often the message is appended again, and
//     stream-json's tool_use lines. A call awaiting approval, or a reply
//     that ends on a question, is the agent asking (SignalAsking).
//   - A session of a model Gemini CLI offers no write_todos (Gemini 3, a
//     preview, auto), with its task tracker off in settings.json, is said
//     to have had no list tool, with the setting that gives it one
//     (offered.go).
//   - Gemini's statuses map one to one, blocked included; an unknown word
//     is kept as RawStatus with StatusUnknown.
//   - Most lines are never parsed: a record's first key gives its kind,
//     a message's id is read from its bytes, and only lines naming a list
//     tool, or carrying a fact still missing, reach fastjson.
//   - A line not shaped like a JSON object, or a selected line that is
//     not usable, returns a *tally.Error (CodeInvalid) and changes
//     nothing; the decoder never panics. Text that is not valid UTF-8 is
//     passed on for the fold to repair and report.
//
// A legacy .json record is a document, not a line: it is read as a stream
// (Decoder.ReadWhole), a message at a time, so one of any size is read in
// the memory of its largest message.
//
// Sessions are keyed by their full id, what `gemini --resume` takes: the
// chat file's name holds only its first 8 characters, so Match reads the id
// from the record's first line, falling back to the name's 8 characters
// (see Adapter.Match). Chat records hold no working directory; the project
// is taken from the best source there is (see projectRank).
package gemini
