// Package storetest is the suite every store passes — the embedded SQLite
// store and the PostgreSQL one alike — so the indexer and the surfaces can
// rely on one contract whichever store they are given (the litestream
// pattern: one contract, one suite, many backends). Run checks the core,
// tally.Store, which a store that keeps nothing but files and records
// passes; the other suites take a whole store (store.Store), which the
// compiler has already checked has every method.
//
// Run checks what a user would notice if a store got it wrong: state that
// does not come back exactly as saved (a restart would resume at the wrong
// offset or lose a task), a half-written batch, a removed session that
// still shows, a listing in the wrong order or with the wrong sessions, an
// id prefix that picks a session silently when it is ambiguous, and a
// reader that sees half of a commit.
//
// RunTasks checks the task lists of the MCP tools the same way: a call
// commits the list and its session together, a refused call writes
// nothing, a finished round is archived. RunShared opens several handles
// on one database, as several processes would: each sees the others'
// commits, a reader following Changed misses none however commits
// interleave, and task calls through different handles lose no update.
// RunMarkers and RunSharedMarkers check the progress markers a
// tally.MarkerStore keeps: pending from the commit that saved their lines,
// each key recorded once and settled once, through one handle or two.
// RunTeam and RunTeamShared check the team's parts: the hooks' memory and
// needs-input marks, tokens, pushed batches. Both stores run every suite.
//
// A failed batch is provoked in ways every store must handle the same,
// with no hook into the store: an element the contract forbids (a record
// with no id) placed after valid ones, a record whose time JSON cannot
// hold (year 10000), and a context cancelled before the commit. Each must
// fail the whole batch and leave the previous state. A store that can
// fail inside its transaction should add its own test for that too.
package storetest
