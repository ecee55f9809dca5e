-- The tool rows answering calls, in the last ?1 seconds before the newest
-- message (as recent_calls.sql): they finish the runtime's calls.
SELECT COALESCE(CAST(session_id AS TEXT), ''), COALESCE(CAST(timestamp AS REAL), 0),
       COALESCE(CAST(tool_call_id AS TEXT), ''), CAST(content AS BLOB)
FROM messages
WHERE role = 'tool' AND tool_call_id IS NOT NULL
  AND timestamp >= (SELECT max(timestamp) FROM messages) - ?1
ORDER BY 2, id
