-- Each session's newest message. SQLite takes the bare columns of an
-- aggregate query from the row that holds the max.
SELECT COALESCE(CAST(session_id AS TEXT), ''), MAX(COALESCE(CAST(timestamp AS REAL), 0)),
       COALESCE(CAST(role AS TEXT), ''),
       tool_calls IS NOT NULL AND tool_calls != '' AND tool_calls != '[]'
FROM messages
GROUP BY session_id
