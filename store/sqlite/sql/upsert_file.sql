INSERT INTO files (path, session, agent, offset, state, updated_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT (path) DO UPDATE SET
	session = excluded.session,
	agent = excluded.agent,
	offset = excluded.offset,
	state = excluded.state,
	updated_at = excluded.updated_at;
