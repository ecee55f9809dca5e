// Package normalize turns any agent's output stream into one JSONL
// vocabulary: a unified todo_list event whose first seven fields are the
// ones consumers of that event already read, with Tally's richer fields
// after them (docs/formats.md describes the format and where it comes
// from). It is the library behind `tally normalize`, and its Stream is what
// `tally follow` reads.
//
// What it promises:
//
//   - One loop for every agent: lines are found here, with bounded memory,
//     and each is folded with tally.FileState.Feed through the adapter's own
//     Decoder; nothing here knows any agent's format.
//   - The format is told from the first lines (tally.StreamReader's Sniff)
//     unless the caller names the agent. A line two adapters both claim
//     decides nothing; the first line exactly one adapter claims decides.
//   - After each input line that changes a list as a reader sees it, one
//     todo_list event for that list (the whole list, never a delta, since
//     consumers replace their list with each event). A line that changes nothing
//     visible — Codex's item.completed repeating the list — writes nothing.
//     Progress markers found in the agent's text are written as
//     progress_marker events.
//   - Output is deterministic for the same input: ids are derived from the
//     input (see ids.go), and timestamps come from the agent's own record or,
//     for formats without one, from Options.Now. One adapter reads beside
//     the stream: Gemini's task tracker is read from the tracker's files
//     where the stream holds no list, so it depends on them as well.
//   - Bad input never stops the stream: a malformed line is reported on the
//     error stream with its line number and skipped; a line longer than
//     tail.MaxLine is skipped without being held in memory, as the indexer
//     does. An item that came without text is skipped the same way: not
//     written, not counted in progress, and reported with its line number.
//     An input of which no line could be read is an error (CodeInvalid),
//     after the count of skipped lines: a script must not take it for
//     success.
//   - An input that is one JSON document rather than JSON Lines (its first
//     line a lone "{" or "[", as a pretty-printer writes it, such as the
//     ACP specification's examples) is read whole, up to tail.MaxLine, and
//     each JSON value in it, each element of a top-level array, is read as
//     one line.
package normalize
