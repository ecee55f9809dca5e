-- Each key once: a line read again, here or by another replica, records
-- nothing new. One row per element of the arrays.
INSERT INTO plan_markers (key, session, project, at, marker)
SELECT key, session, project, at, marker::json
FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(key, session, project, at, marker)
ON CONFLICT (key) DO NOTHING;
