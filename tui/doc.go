// Package tui is Tally's terminal dashboard: every agent session on the
// machine, and the Task Panel of the one in hand, redrawn as the agents'
// logs change.
//
// What it promises:
//   - It shows the same sessions the web board shows, because it is fed the
//     same way: the indexer's committed changes reach the root model through
//     program.Send (Feed), never by polling the agents' files.
//   - Components are pure views over tally.Session values at a given size:
//     the session list (list.go), the Task Panel collapsed and expanded
//     (headline.go, panel.go, fold.go), the session detail (detail.go), the
//     filter bar (filterbar.go) and help (help.go). The root model (model.go)
//     alone holds state and routes messages; a component never reads a clock
//     or a store.
//   - The list is windowed: of any number of sessions, only the rows on
//     screen are derived (Record → Session) and drawn, so the first frame
//     does not wait on the size of the history. The first frame shows the
//     records the caller read (Options.Records); the rest of the store is
//     read, and the caller's Drawn runs, once that frame is on the
//     terminal (Program).
//   - A session following a plan (Headline.Plan) expands to the plan's
//     tasks, each with its status, X/Y steps and current step, folded as
//     seed 04's Task Panel is (two columns when long, the next planned
//     only past 100 tasks); Tab chooses one and Enter, or a click, shows
//     its steps. The session's own list follows under a line of its own.
//   - Flags call a person back: a session that has not ended shows its most
//     urgent flag in place of its activity, marked with !; the detail lists
//     every flag and how long it has been so.
//   - Escape sequences of one's own (a terminal notification) go through
//     Printer: written whole, between frames.
//   - Nothing redraws unless something changed: the 80 ms spinner ticks only
//     while the session in view has a step in progress and is working, and
//     the clock wakes the model only when a shown age or activity is due to
//     change.
//   - No line is wider than the terminal and the frame is exactly as high as
//     the terminal, at any size: nothing wraps. Agents' text reaches it only
//     through oneLine, which drops control characters: a log cannot move
//     the cursor or write the clipboard.
//
// The files, by job:
//
//	model.go      the root model: options, state, Update's routing
//	keys.go       keys and mouse, per screen
//	view.go       the frame: the list screen, the detail screen, help
//	clock.go      the spinner's and the clock's ticks, only when due
//	roster.go     every session known, the filter, the sort, the window
//	list.go       the session list's columns and rows
//	headline.go   the collapsed Task Panel (Headline, and the Headliner seam)
//	panel.go      the Task Panel, collapsed or expanded; sub-agents' lists
//	fold.go       an expanded list folded: done runs, ranges, two columns
//	planpanel.go  a plan's tasks as the expanded panel's rows; one task's steps
//	detail.go     one session opened; one task in full
//	filterbar.go  the bottom line: the filter typed, hints, notes
//	help.go       the keys
//	style.go, mark.go, text.go   colours, marks and widths (termstyle's)
//	feed.go       the indexer's change stream to the program (Feed)
//	run.go        the program on a terminal
package tui
