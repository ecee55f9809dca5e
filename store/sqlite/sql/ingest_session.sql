-- As upsert_session.sql, for a record pushed from machine ?9 by user ?10:
-- a row that exists is rewritten only when it came from the same machine,
-- so a pushed record never replaces a session of another origin. No row
-- changed means refused.
INSERT INTO sessions (id, agent, project, title, started_at, last_activity, record, updated_at, seq, origin_machine, origin_user)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, (SELECT coalesce(max(seq), 0) + 1 FROM sessions), ?9, ?10)
ON CONFLICT (id) DO UPDATE SET
	agent = excluded.agent,
	project = excluded.project,
	title = excluded.title,
	started_at = excluded.started_at,
	last_activity = excluded.last_activity,
	record = excluded.record,
	updated_at = excluded.updated_at,
	seq = excluded.seq,
	origin_user = excluded.origin_user
WHERE sessions.origin_machine = excluded.origin_machine;
