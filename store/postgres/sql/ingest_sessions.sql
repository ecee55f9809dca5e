-- As upsert_sessions.sql, for records pushed from machine $9 by user $10:
-- a row that exists is rewritten only when it came from the same machine,
-- so a pushed record never replaces a session of another origin (another
-- machine, the team's own task lists). Returns the ids written.
INSERT INTO sessions (id, agent, project, title, started_at, last_activity, record, seq, origin_machine, origin_user)
SELECT id, agent, project, title, started_at, last_activity, record::json, $8 - cardinality($1::text[]) + ord, $9, $10
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[])
	WITH ORDINALITY AS u(id, agent, project, title, started_at, last_activity, record, ord)
ON CONFLICT (id) DO UPDATE SET
	agent = excluded.agent,
	project = excluded.project,
	title = excluded.title,
	started_at = excluded.started_at,
	last_activity = excluded.last_activity,
	record = excluded.record,
	seq = excluded.seq,
	origin_user = excluded.origin_user,
	updated_at = now()
WHERE sessions.origin_machine = excluded.origin_machine
RETURNING id;
