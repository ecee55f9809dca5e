-- 006: what `tally serve` keeps when it is a team's server on this store:
-- where pushed records came from (filtered on), each pusher's stream of
-- change marks, and access tokens.

-- origin_machine and origin_user say which machine and user a pushed
-- record came from; '' for records this store's own indexer and task
-- tools wrote.
ALTER TABLE sessions ADD COLUMN origin_machine TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN origin_user TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_machine ON sessions (origin_machine, last_activity, id);
CREATE INDEX sessions_user ON sessions (origin_user, last_activity, id);

-- session_records (see 005) shows the origin too, for listing to filter on.
DROP VIEW session_records;
CREATE VIEW session_records AS
SELECT s.id, s.agent, s.project, s.title, s.started_at, s.last_activity, s.seq,
	s.origin_machine, s.origin_user,
	CASE WHEN s.agent = 'tally' AND substr(s.id, 1, 6) = 'tally:'
		AND EXISTS (SELECT 1 FROM task_lists l WHERE l.name = substr(s.id, 7))
	THEN json_set(s.record, '$.lists', json_object('', json((
		-- CROSS JOIN keeps this order: each id of the order finds its
		-- row by the primary key.
		SELECT json_group_array(json(i.task) ORDER BY o.key)
		FROM task_lists l
		CROSS JOIN json_each(CASE WHEN json_valid(l.list) THEN l.list ELSE '{}' END, '$.order') o
		CROSS JOIN task_items i
		WHERE l.name = substr(s.id, 7)
			AND i.list = l.name AND i.deleted = 0 AND i.id = o.value AND json_valid(i.task)))))
	ELSE s.record END AS record
FROM sessions s;

-- push_streams: how far each pusher's stream (one pusher's local store) has
-- been applied: mark is the newest of its change marks whose records are
-- all here, moved in the transaction that applies a batch.
CREATE TABLE push_streams (
	machine    TEXT NOT NULL,
	stream     TEXT NOT NULL,
	mark       INTEGER NOT NULL,
	user_name  TEXT NOT NULL,
	lines      INTEGER NOT NULL DEFAULT 0,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (machine, stream)
) WITHOUT ROWID;

-- tokens: access tokens by their public id; hash is the SHA-256 of the
-- secret, which is never stored.
CREATE TABLE tokens (
	id         TEXT PRIMARY KEY NOT NULL,
	name       TEXT NOT NULL,
	scope      TEXT NOT NULL,
	hash       BLOB NOT NULL,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
