// Package planner applies the progress markers agents write to the plans
// of their projects, and tells the surfaces what each project's plan
// looks like. It is where Tally acts as the orchestrator of a plan: an
// agent says "progress: T001.S1 done" in its reply, and the plan's files
// change with no other step.
//
// What it promises:
//
//   - Exactly once. The indexer commits each marker it reads (by its key:
//     session, line offset, index) in the same store transaction as the
//     line's offset (tally.MarkerStore); Planner applies what is pending
//     after the commit and records the result against the key. A crash
//     before the plan is written leaves the marker pending for the next
//     start; a crash after it finds the key in the plan's ledger and
//     records the ledger's verdict. Another Tally process reading the same
//     line finds the key taken, in the store and in the ledger.
//   - In order. Markers are applied oldest first, across sessions, from
//     one goroutine, each plan's markers of one round in one locked write;
//     one that is older than the newest the plan has taken is recorded as
//     skipped, never applied (reading history must not rewind a plan).
//   - Never a stall. The indexer only hands markers over (Committed never
//     blocks); a plan that cannot be written is a diagnostic, said once
//     until it changes, and its markers wait for the next round.
//   - Never through a link. A plan folder Tally refuses (plan.Refused: a
//     link, a FIFO, another user's file, a folder outside its project)
//     does not become writable by waiting: its markers are settled as
//     rejected, saying why, counted (Refused) and said once.
//   - Only where there is a plan. A marker goes to the plan folder of its
//     session's project (Options.Folder: the project's path and the
//     configured folder, docs/por by default); a project without that
//     folder gets none, and the marker is recorded as "no plan".
//   - Surfaces see the same plan. View is a project's plan for the board
//     and the terminal (planview.PanelLine's line, the active task and step);
//     Subscribe tells them when one changed, whether by a marker or by
//     files agents or people wrote (folders Planner has been asked about
//     are looked at every Poll, and their scope kept current).
package planner
