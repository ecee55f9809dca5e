-- 006: the progress markers the indexer read, from the commit that saved
-- their lines' offsets until they are applied to their plans, and what
-- became of each. A key is recorded once (INSERT OR IGNORE), so a line
-- read again, by this process or another, gives no second marker; and a
-- result, once settled, is not replaced.
CREATE TABLE plan_markers (
	key        TEXT PRIMARY KEY NOT NULL,
	session    TEXT NOT NULL,
	project    TEXT NOT NULL,
	-- when the marker's line was written; 0 when the log does not say
	at         INTEGER NOT NULL,
	-- the tally.Marker as JSON
	marker     TEXT NOT NULL,
	-- a tally.MarkerVerdict word: 'pending' until settled
	verdict    TEXT NOT NULL,
	reason     TEXT NOT NULL DEFAULT '',
	plan       TEXT NOT NULL DEFAULT '',
	settled_at INTEGER NOT NULL DEFAULT 0,
	found_at   INTEGER NOT NULL
) WITHOUT ROWID;

-- The applier reads what is pending, oldest first.
CREATE INDEX plan_markers_pending ON plan_markers (at, key) WHERE verdict = 'pending';
-- tally show lists a session's markers.
CREATE INDEX plan_markers_session ON plan_markers (session, at, key);
