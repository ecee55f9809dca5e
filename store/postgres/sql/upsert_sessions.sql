-- One row per element of the arrays, which hold no id twice, in the order
-- the batch wrote them. $8 is the newest mark, which take_marks.sql
-- reserved for this transaction with the ones below it: the n-th of n
-- records takes mark $8, the first $8 - n + 1. The origin columns are left
-- as they are.
INSERT INTO sessions (id, agent, project, title, started_at, last_activity, record, seq)
SELECT id, agent, project, title, started_at, last_activity, record::json, $8 - cardinality($1::text[]) + ord
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
	updated_at = now();
