-- Each session's first user message, cut short: only its first line is
-- ever shown.
SELECT COALESCE(CAST(session_id AS TEXT), ''), MIN(id), COALESCE(substr(CAST(content AS TEXT), 1, 400), '')
FROM messages
WHERE role = 'user'
GROUP BY session_id
