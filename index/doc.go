// Package index keeps the store in step with the agents' logs.
//
// One Indexer owns all file states. A round (a scan, or the files a
// notification named) hands changed files to worker goroutines — each file
// to one worker, which alone touches its state until it hands it back —
// and the coordinator merges the results into session records, commits
// them with their offsets in one store transaction, and only then publishes
// the changes. Subscribers therefore never see a change the store could
// lose, and a restart resumes from exactly the committed offsets.
//
// Stopping never waits for a read: a round stops waiting when its context
// ends, and the files a read still holds are taken back when it ends. A
// file that cannot be read is reported and the others go on; a store that
// can keep nothing more, gone or read-only (tally.StoreUnusable), ends Run.
//
// A list kept as a directory of files (Claude Code's task files) is the
// list as it is now: it joins the record of the session it is named after,
// or, named otherwise (a list several sessions share), is a record of its
// own, linked to the sessions of its project whose logs show them reading
// its tasks (see link.go); a list named after a session is never linked
// to another.
//
// The Indexer is the one writer of file states. A fold made outside a
// running Indexer — a hook reading its session's transcript — is the
// Indexer's own read and commit (FoldFile, Fold.Commit): it carries the
// markers it read and detection's state like any round, so a state never
// moves past a marker the planner will not get.
//
// Memory follows the sessions still going, not history: once a session is
// over its files keep only their marks (offset, identity) in memory, and
// their full state is read back from the store when they change again.
//
// The files, by job:
//
//	index.go     the Indexer, its options, and loading the saved marks (New)
//	scan.go      a scan: walk the homes, find what changed and what is gone
//	pool.go      a round: fold files on worker goroutines, commit as it goes
//	fold.go      one file folded and committed outside a running Indexer
//	database.go  a database holding many sessions, read whole, one part each
//	directory.go a list kept as a directory of files, read whole
//	link.go      a list sessions share, joined to the sessions that use it
//	detect.go    what a fold's observer learns (markers, detection), detection summed
//	markers.go   the markers read, keyed and handed to the planner once committed
//	commit.go    commit (and keep what failed for the next round), then publish
//	memory.go    warm a file's state back from the store, cool it when over
//	live.go      Run: notifications, the catch-up scan, other processes' commits
package index
