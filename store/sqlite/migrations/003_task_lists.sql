-- 003: the task lists tally mcp keeps (tally.TaskList as JSON). Each list
-- is one row, rewritten whole by one IMMEDIATE transaction per tool call,
-- so tool calls of several processes on one list are serialised by
-- SQLite's write lock. The list's tally.Record is upserted into sessions
-- in the same transaction, which is how watch and the dashboard see it.
CREATE TABLE task_lists (
	name       TEXT PRIMARY KEY NOT NULL,
	list       TEXT NOT NULL,
	updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- task_archive: a list's finished rounds. When every task was done and a
-- TaskCreate started the list again from id 1, the finished round lands
-- here under its generation number.
CREATE TABLE task_archive (
	name        TEXT NOT NULL,
	generation  INTEGER NOT NULL,
	list        TEXT NOT NULL,
	archived_at INTEGER NOT NULL,
	PRIMARY KEY (name, generation)
) WITHOUT ROWID;
