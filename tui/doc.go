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
//     does not wait on the size of the history.
//   - Nothing redraws unless something changed: the 80 ms spinner ticks only
//     while the session in view has a step in progress and is working, and
//     the clock wakes the model only when a shown age or activity is due to
//     change.
//   - No line is wider than the terminal and the frame is exactly as high as
//     the terminal, at any size: nothing wraps.
package tui
