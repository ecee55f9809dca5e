// Package cursor reads the agent transcripts of Cursor (its CLI,
// cursor-agent, and its editor's agent): one JSON Lines file per
// conversation under ~/.cursor/projects/<folder slug>/agent-transcripts/,
// as <id>/<id>.jsonl (or <id>.jsonl in earlier versions).
//
// Cursor's CLI cannot be installed here and its source is not published:
// the format is taken from public tools that read these transcripts, which
// agree (see docs/formats.md, with how sure it is). What it promises:
//
//   - A line is {"role":"user"|"assistant","message":{"content":[…]}}, its
//     blocks Anthropic-shaped (text, tool_use {name, input}, tool_result),
//     or {"type":"turn_ended","status":…} when a turn ends.
//   - The list is TodoWrite's: {"merge":false,"todos":[{id,content,status}]}
//     replaces it, {"merge":true,…} updates the items by id (a field left
//     out is kept) and appends new ids. Statuses pending, in_progress,
//     completed, cancelled.
//   - Lines carry no time. A prompt's is in its text (<timestamp>Tuesday,
//     Jun 16, 2026, 8:41 PM (UTC-4)</timestamp>); the newest line's is the
//     file's modification time, read once per read (tally.Recenter). The
//     title is the first prompt's <user_query>, weak.
//   - The project folder is the slug read back against the disk: the slug
//     is the folder's path with every '/' (and other characters) made '-',
//     so each '-' is tried as '/' or kept, the first folder that exists
//     winning; none found, no project.
//   - Whose turn: a turn_ended line hands it back; any other line is work.
//   - A line not shaped like a JSON object, or a selected line that does
//     not parse, returns a *tally.Error (CodeInvalid) and changes nothing.
package cursor
