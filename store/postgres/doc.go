// Package postgres is the team store: one PostgreSQL database (pgx v5,
// pgxpool) that implements tally.Store and keeps the task lists of the
// MCP tools, shared by any number of `tally serve` replicas behind a load
// balancer, and by `tally mcp` processes on other machines.
//
// What it promises — the embedded store's promises, store/storetest
// checks both, and these for sharing:
//
//   - Commit is one transaction: file states, offsets, records and
//     progress markers land together or not at all. A failed batch leaves the previous state.
//   - Every record written takes the next change mark. Transactions that
//     write take the marks on one row (change_marks) whose lock they hold
//     until they end, so they commit in the order of their marks, and a
//     reader of Changed that saw mark N never later finds a commit below
//     N: reading on from the mark it was given misses nothing. The cost is
//     that writers take turns, which a commit's few round trips keep
//     short.
//   - Watch tells a replica of commits within milliseconds: each commit
//     that wrote records NOTIFYs one channel, and one LISTEN connection
//     per process wakes the watchers, who read Changed from their own
//     mark. The notification carries nothing they depend on. A lost
//     LISTEN connection is made again, and its watchers are woken then,
//     so commits notified to no one in between are read too.
//   - A task tool call is one transaction holding the list's row lock
//     (SELECT … FOR UPDATE) from read to commit: calls through every
//     replica on one list are serialised, so the list's rules — one task
//     in progress, no start with open blockers, unique ids — hold across
//     replicas, and no call's update is lost. Lock order is always the
//     list, then the change marks, so calls cannot deadlock.
//   - A damaged row (JSON of the wrong shape, edited by hand) is skipped
//     and counted, see Skipped; a damaged task list is refused rather than
//     overwritten.
//   - A pushed batch (Ingest) is one transaction holding its stream's
//     push_streams row lock from reading the stream's mark to moving it: a
//     batch sent again is a repeat and writes nothing, one past the mark
//     asks for a resend. A pushed record never replaces a session of
//     another origin.
//   - Progress markers (tally.MarkerStore) are recorded pending in the
//     commit that saves their lines' offsets, each key once (ON CONFLICT
//     DO NOTHING), so a line read again by any replica adds nothing. A
//     result is settled once: only a pending row is updated, so the
//     replica that settles first says what became of a marker. Rows are
//     settled in key order, so replicas settling the same keys at once
//     never deadlock. A marker row damaged by hand is skipped and counted.
//   - A hook call (UpdateHook) holds its session's hook_state row lock;
//     its needs-input mark shows in the record at once and holds over
//     commits and pushes of older activity.
//   - Lead elects at most one process per role, on a session advisory
//     lock held by a connection of its own; the leader stops leading
//     before its lock can go.
//   - Tokens are kept by id with the SHA-256 of their secret only.
//   - A database whose schema is newer than this build is refused at Open.
//
// Schema: numbered migrations in migrations/ recorded in tally_migrations,
// applied under an advisory lock so replicas that start together migrate
// once; queries in sql/. Both are embedded. Records and file states are
// stored as JSON, as in the embedded store; keys collate "C" so ordering
// and id prefixes compare bytes. Records carry origin_machine and
// origin_user columns, NULL until records are pushed from developers'
// machines.
package postgres
