-- The assistant rows whose text may hold a progress marker. The instr test
-- is the prefilter (the keyword in any case, as package marker reads it): the
-- Go side reads the markers, each line of its own.
SELECT COALESCE(CAST(session_id AS TEXT), ''), id, COALESCE(CAST(timestamp AS REAL), 0), CAST(content AS BLOB)
FROM messages
WHERE role = 'assistant' AND instr(lower(content), 'progress:') > 0
ORDER BY 3, 2
