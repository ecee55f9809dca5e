// Package follow shows a piped agent stream (`codex exec --json … | tally
// follow`) as a single todo list updated in real time, with no copy of it
// left behind in the scroll-back each time it changes.
//
// What it promises:
//
//   - On a terminal the list is drawn below everything else and redrawn in
//     place: the rows of the previous drawing are erased (cursor up, clear
//     to the end of the screen) before the new one is written. The drawing
//     never wraps (each row is cut to the terminal's width) and never grows
//     past the screen (rows beyond its height are summed up in one "… n
//     more" row), because rows that wrapped or scrolled off could not be
//     erased and would stay behind as duplicates.
//   - The agent's other output passes through above the list: lines that
//     are not the agent's JSON, JSON lines its adapter could not read, and
//     the assistant's text for adapters that expose it (an adapter with a
//     method Text(line) (string, bool), as acp has).
//   - The lifecycle: a new version of the shown list replaces it; a list of
//     another agent or sub-agent takes over; an empty list clears the list
//     it belongs to; the end of a turn or of the stream keeps the last list
//     on screen as it was. Items are not marked completed at the end,
//     because a list the agent left unfinished is information. Runtime
//     tool-call progress (list "runtime") is shown only while no
//     model-owned list has been: it is what an agent that keeps no list
//     still tells, and it must not push a real plan off screen.
//   - Marks are those of every terminal surface, whatever the agent
//     (termstyle's icons): ✓ completed, ✗ cancelled or failed, ◼ in
//     progress, ◻ pending (and codex exec's open items, which cannot tell
//     in_progress from pending), ▸ blocked. The header names the agent
//     (and sub-agent) in the agent's colour, with X of Y done.
//   - Elsewhere (a pipe, a file) the list is printed whole, plainly, each
//     time its drawing changes, so a log of the run reads top to bottom
//     without the same list twice in a row.
package follow
