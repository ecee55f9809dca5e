-- The marks of every file: what the indexer keeps in memory. The fields
-- come out of the state JSON inside PostgreSQL, so the lists are never
-- sent or decoded.
SELECT path, session, agent, "offset",
	coalesce(state->>'identity', ''),
	coalesce(state->>'head', '0'),
	coalesce(state->>'lastAt', ''),
	coalesce(state->>'database', '')
FROM files ORDER BY path;
