-- 001: the first schema. Times are INTEGER nanoseconds since the Unix epoch
-- (UTC), clamped to the int64 range, so ORDER BY and range filters compare
-- instants exactly; the JSON columns keep the full values.

-- files: one row per log file, its full tally.FileState as JSON. offset,
-- session and agent duplicate fields of state for inspection with the
-- sqlite3 shell; they are always written together with state.
CREATE TABLE files (
	path       TEXT PRIMARY KEY NOT NULL,
	session    TEXT NOT NULL,
	agent      TEXT NOT NULL,
	offset     INTEGER NOT NULL,
	state      TEXT NOT NULL,
	updated_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX files_session ON files (session);

-- sessions: one row per session, its tally.Record as JSON; the other
-- columns are what listing filters and sorts on.
CREATE TABLE sessions (
	id            TEXT PRIMARY KEY NOT NULL,
	agent         TEXT NOT NULL,
	project       TEXT NOT NULL,
	title         TEXT NOT NULL,
	started_at    INTEGER NOT NULL,
	last_activity INTEGER NOT NULL,
	record        TEXT NOT NULL,
	updated_at    INTEGER NOT NULL
);

-- Listing is newest first and stops at the limit: walking this index
-- backwards reads only the rows returned.
CREATE INDEX sessions_last_activity ON sessions (last_activity, id);
-- Listing one agent's sessions.
CREATE INDEX sessions_agent ON sessions (agent, last_activity, id);
-- The project filter is a substring match, which no b-tree index serves;
-- it is applied while walking sessions_last_activity.
