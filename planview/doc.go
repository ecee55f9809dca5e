// Package planview draws a project's plan (package plan) for people and
// programs: the summary with its progress bar and task rows, one task,
// the done, active and blocked lists, the timeline of the ledger, the
// panel line a status bar shows ("2/5 → T003 [S2]"), and the JSON report
// of tally task --json.
//
// Every view is a pure function of a loaded plan (or its ledger's
// entries) and the options (ViewOptions: the clock, the time zone), so the
// command line, the terminal UI, the board and the notifications say the
// same thing; widths are measured and cut by termstyle, which is why these
// views live apart from the rules.
package planview
