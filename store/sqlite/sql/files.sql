-- The marks of every file: what the indexer keeps in memory. The fields
-- come out of the state JSON inside SQLite, so the lists are never decoded.
-- A damaged state (the last column 0) is skipped by the caller, so the
-- indexer reads that file again from the start, which rewrites the row.
SELECT path, session, agent, offset,
	CASE WHEN json_valid(state) THEN coalesce(json_extract(state, '$.identity'), '') ELSE '' END,
	CASE WHEN json_valid(state) THEN coalesce(json_extract(state, '$.head'), '0') ELSE '0' END,
	CASE WHEN json_valid(state) THEN coalesce(json_extract(state, '$.lastAt'), '') ELSE '' END,
	CASE WHEN json_valid(state) THEN coalesce(json_extract(state, '$.database'), '') ELSE '' END,
	json_valid(state)
FROM files ORDER BY path;
