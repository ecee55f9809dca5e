INSERT INTO sessions (id, agent, project, title, started_at, last_activity, record, updated_at, seq)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, (SELECT coalesce(max(seq), 0) + 1 FROM sessions))
ON CONFLICT (id) DO UPDATE SET
	agent = excluded.agent,
	project = excluded.project,
	title = excluded.title,
	started_at = excluded.started_at,
	last_activity = excluded.last_activity,
	record = excluded.record,
	updated_at = excluded.updated_at,
	seq = excluded.seq;
