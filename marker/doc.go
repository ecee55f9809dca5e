// Package marker finds progress markers in an agent's message text: the
// one-line "progress: T001.S1 done" an agent writes so that an orchestrator,
// not the agent, keeps the task file up to date (CCCC's progress markers;
// docs/formats.md has the grammar and its source).
//
// What it promises:
//
//   - The grammar, no wider: a line that starts (after indentation) with
//     the lowercase word "progress:", then a task id with an optional
//     ".step" id, then one of the verbs start, done, blocked or promoted,
//     and for any verb an optional ": reason" running to the end of the
//     line. Spaces and tabs may vary where the defining pattern
//     (`progress:\s*(\S+)\s+(\w+)(?::\s*(.+))?`) lets them vary; case may
//     not, since that pattern is case-sensitive.
//   - Stricter than that pattern where it would misread prose: the marker
//     must begin its line (so "work in progress: T1 done" is not one), the
//     verb must be one of the four, and nothing but a reason may follow it
//     ("progress: T001 done." is not a marker).
//   - Several markers in one text are returned in the order they appear,
//     which is the order they are to be applied in.
//   - Scan never panics and does a bounded amount of work per input byte:
//     one pass to split lines, and per line a left-to-right parse that never
//     backtracks.
package marker
