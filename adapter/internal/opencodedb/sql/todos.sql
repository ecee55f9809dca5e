-- Every session's current list, in its order (todo's key is
-- (session_id, position)).
SELECT COALESCE(CAST(session_id AS TEXT), ''), COALESCE(CAST(content AS TEXT), ''),
       COALESCE(CAST(status AS TEXT), ''), COALESCE(CAST(priority AS TEXT), ''),
       COALESCE(CAST(time_updated AS INTEGER), 0), COALESCE(CAST(position AS TEXT), '')
FROM todo
ORDER BY session_id, position
