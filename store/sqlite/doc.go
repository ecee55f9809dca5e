// Package sqlite is the embedded store, the default: one SQLite file
// (modernc.org/sqlite, pure Go, so the binary stays cgo-free) that
// implements tally.Store.
//
// What it promises:
//
//   - Commit is one transaction. A file's state, its offset and the
//     session records land together or not at all, including across a
//     kill -9 or power loss at any moment (SQLite's WAL guarantees it;
//     synchronous=NORMAL may lose the last commits on power loss, never
//     consistency, and the indexer simply reads those bytes again).
//   - Reads never wait for a commit: the database is in WAL mode, so
//     readers see the last committed snapshot while a write is under way.
//   - Another tally process may hold the write lock; statements wait up to
//     BusyTimeout for it, then fail with CodeUnavailable naming the file.
//   - A damaged row (JSON someone edited) is skipped and counted, see
//     Skipped; it never fails a listing or panics.
//   - It can be a team's server too: pushed batches (Ingest) are applied
//     in one IMMEDIATE transaction that reads and moves the stream's mark,
//     so a batch sent twice is applied once; tokens are kept by id with
//     the SHA-256 of their secret only.
//   - A database written by a newer tally (a higher schema version) is
//     refused at Open instead of being misread.
//   - Reading needs no write: a store whose schema is current is opened
//     and read without connecting for writing, so one the process may not
//     write (another user's, a read-only folder, where even -wal and -shm
//     cannot be made) is still listed; a write, or an older schema that
//     must be brought up to date, fails saying the store cannot be written
//     and what to do.
//   - A store whose file is deleted or replaced while it is open is
//     noticed at the next write or poll for changes (tally.ErrStoreGone):
//     nothing goes on into a file nobody reads. A write refused because
//     the file or its folder is read-only is tally.ErrStoreReadOnly, and
//     SQLite's words never carry its error number.
//   - Agents' hooks keep a little memory per session (UpdateHook, one
//     IMMEDIATE transaction per call) and may mark a session as waiting
//     for its user. The mark shows in the session's record at once, and a
//     Commit keeps it in every record whose last activity is not after it:
//     an indexer folding lines written before the prompt cannot undo it,
//     and the first record with newer activity ends it. No caller deletes
//     it, and the tally.Store contract does not change.
//
// Connections: two database/sql pools on the same file. Writes go through
// a pool of exactly one connection, so writers of this process queue in Go
// rather than contend on SQLite's lock, and every write transaction begins
// IMMEDIATE (it takes the lock when it starts, where busy_timeout can wait
// for it, rather than failing on a lock upgrade half way). Reads go through
// a small pool of query-only connections that run concurrently.
//
// Schema: numbered migrations in migrations/ (PRAGMA user_version is the
// number of the last applied); queries in sql/. Both are embedded. Each
// file's full tally.FileState and each session's tally.Record are kept as
// JSON text, so the decoder state and the lists round-trip exactly and the
// schema does not change when the model gains a field; the other columns
// (offset, agent, project, times as int64 nanoseconds) duplicate JSON
// fields for filtering, ordering and inspection with the sqlite3 shell,
// and are written in the same statement as the JSON.
//
// Task lists (UpdateTaskList) are the exception to whole values: a list
// of a thousand tasks would be rewritten whole by every tool call. Each
// task is a row of task_items and a call writes the rows it changed (see
// taskrows.go); the list's session record is stored without its tasks and
// the view session_records, which every session query reads, adds them.
package sqlite
