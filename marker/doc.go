// Package marker finds progress markers in an agent's message text: the
// one-line "progress: T001.S1 done" an agent writes so that an orchestrator,
// not the agent, keeps the task file up to date (CCCC's progress markers;
// docs/formats.md has the grammar and its source).
//
// What it promises:
//
//   - The grammar, no wider: a line that starts (after indentation) with
//     the word "progress:" in any case, then a task id with an optional
//     ".step" id, then one of the verbs start, done, blocked or promoted
//     (lowercase), and for any verb an optional ": reason" running to the
//     end of the line. Spaces and tabs may vary where the defining pattern
//     (`progress:\s*(\S+)\s+(\w+)(?::\s*(.+))?`) lets them vary. What
//     agents put around a marker that leaves no doubt is taken off first:
//     a list bullet and one pair of backticks around the rest of the line.
//   - Stricter than that pattern where it would misread prose: the marker
//     must begin its line (so "work in progress: T1 done" is not one), the
//     verb must be one of the four, and nothing but a reason may follow it
//     ("progress: T001 done." is not a marker).
//   - Never silent about a near miss: a line meant as a marker that is not
//     one (after markup it begins with the keyword and names a task, "T"
//     and a digit) is returned as unrecognised (tally.Marker.Line, and
//     Reason saying why), so the plan's ledger can say why it did not move.
//   - Several markers in one text are returned in the order they appear,
//     which is the order they are to be applied in.
//   - Scan never panics and does a bounded amount of work per input byte:
//     one pass to split lines, and per line a left-to-right parse that never
//     backtracks. Maybe, which every adapter runs on every line it may take
//     text from, stays a skip from colon to colon.
package marker
