-- Each session's last written message: its role, its time (Unix seconds)
-- and whether it asks for a tool (Goose keeps an assistant's text and its
-- tool requests in one message; a tool's answer is a user message).
SELECT COALESCE(CAST(m.session_id AS TEXT), ''), COALESCE(CAST(m.role AS TEXT), ''),
       COALESCE(CAST(m.created_timestamp AS INTEGER), 0),
       CASE WHEN json_valid(m.content_json) THEN EXISTS (
           SELECT 1 FROM json_each(m.content_json) e WHERE json_extract(m.content_json, e.fullkey || '.type') = 'toolRequest')
       ELSE 0 END
FROM messages m
WHERE m.id IN (SELECT MAX(id) FROM messages GROUP BY session_id)
