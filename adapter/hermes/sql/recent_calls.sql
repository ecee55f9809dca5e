-- The assistant rows that call tools, in the last ?1 seconds before the
-- newest message: their calls are fingerprinted to tell a conversation
-- calling the same thing again and again. The newest message stands for
-- now, so that what is read depends on the database alone.
SELECT COALESCE(CAST(session_id AS TEXT), ''), COALESCE(CAST(timestamp AS REAL), 0),
       CAST(tool_calls AS BLOB), id
FROM messages
WHERE role = 'assistant' AND tool_calls IS NOT NULL
  AND timestamp >= (SELECT max(timestamp) FROM messages) - ?1
ORDER BY 2, 4
