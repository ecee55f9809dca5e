// Package plan keeps a project's durable plan: the task files agents write
// beside the code, and the progress markers Tally applies to them so that
// the agent only has to say "progress: T001.S1 done".
//
// A plan folder (docs/por by default; a parameter, per project) holds
//
//	T001-slug/task.yaml   one task: id, name, goal, status and 2–8 steps
//	scope.yaml            original and current task counts (Tally's)
//	ledger.jsonl          what happened, one JSON entry a line (Tally's)
//
// What it promises:
//
//   - Validation finds every problem of a file, each with its file and line
//     ("T003-x/task.yaml:12: step id "S" must be S<number>, like S1"), and
//     never panics, whatever the bytes. A task with problems is left out of
//     the plan and a marker naming it is rejected with the first problem.
//   - Only what agents plan and the statuses are stored. The current step,
//     X/Y, percentages, when a task started or completed and whether it is
//     blocked are computed from the files and the ledger.
//   - Tally's edits change status words and nothing else: comments, blank
//     lines, quoting and key order stay. (A status key the agent left out is
//     added by rewriting the YAML tree, which keeps comments and key order
//     but not blank lines.) An edit that would not read back as intended is
//     not written.
//   - Every file but the ledger is replaced atomically by one function
//     (temporary file in the same folder, fsync, rename, fsync of the
//     folder): a crash leaves the old file or the new, never a mix. The
//     ledger is append-only, synced after each append; a line cut short by
//     a crash is ignored when read and the next append starts a fresh line.
//   - A plan folder lies inside its project (Folder.Root) and is
//     reached from it one name at a time without following a link; every
//     folder on the way is the user's and no other user's to write in;
//     every plan file is opened without following a link or waiting on a
//     FIFO and must be a regular file of the user's (the ledger, written
//     in place, with no other name). Anything else is refused (Refused):
//     never read or written through. A refused task file leaves its task
//     out, so a marker naming it is rejected with the reason in the
//     ledger; a refused scope.yaml or ledger leaves the plan readable,
//     with the problem shown, and nothing is written (Plan.Writable).
//   - Writers take turns on an flock of the plan folder itself (no lock
//     file in the user's repository), in one process or many, so two
//     agents' markers never lose each other's changes and the ledger is in
//     the order they were applied.
//   - Markers are applied by a pure rule table (Decide), in order, once:
//     each carries a key (session, byte offset of its log line, index in
//     the message); a key the ledger holds is not judged again, and a
//     marker older than the newest one the plan has taken (by more than
//     StaleAfter, which leaves agents working at once their say) is
//     skipped, so reading old history never rewinds a plan. Rejected and skipped
//     markers are recorded with their reason.
//   - A long ledger costs what it must, once: Load folds it as it reads
//     (the facts of each task, a hash of each judged marker's key, the
//     scope's folders) and keeps none of its entries, so a plan of a 95 MB
//     ledger loads in a fraction of a second and a few megabytes; the
//     entries are read again, streamed, only to be shown (Entries) or
//     looked up (Judged). Its problems are bounded: a ledger of garbage
//     is a hundred problems and a count, not millions.
//   - scope.yaml is created when the plan goes into execution (the first
//     marker applied), with original = current = the number of task
//     folders, and then kept equal to that number; each change is a
//     scope_change entry.
//
// The views of a plan (the summary, a task, the timeline, the panel line,
// the JSON report) are package planview's: this package says what a plan
// is and what its rules do, and draws nothing (it imports no terminal
// package).
//
// The files, by job:
//
//	task.go parse.go problem.go scope.go   the model: task files and scope.yaml, parsed and validated
//	rules.go judge.go                      the marker rules, a pure table (Decide), and markers judged against a plan (Judge)
//	summary.go derived.go                  the ledger folded as read; what is derived from it
//	edit.go                                status edits that keep the user's YAML (bytes in, bytes out)
//	protocol.go                            how an agent keeps a plan (the protocol block)
//	folder.go ledger.go cache.go           reading a folder: Load, the ledger's entries, the cache
//	apply.go                               Apply and Create: under the lock, read, Judge, write; one writer
//	open.go write.go lock_*.go             every file opened through internal/safefile; atomic writes; the folder's lock
package plan
