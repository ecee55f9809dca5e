-- One row per element of the arrays, which hold no path twice.
INSERT INTO files (path, session, agent, "offset", state)
SELECT path, session, agent, "offset", state::json
FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(path, session, agent, "offset", state)
ON CONFLICT (path) DO UPDATE SET
	session = excluded.session,
	agent = excluded.agent,
	"offset" = excluded."offset",
	state = excluded.state,
	updated_at = now();
