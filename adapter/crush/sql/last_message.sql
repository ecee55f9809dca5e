-- Each session's most recently written message and whether it is
-- finished. SQLite takes the bare columns of an aggregate query from the
-- row holding the max.
SELECT COALESCE(CAST(session_id AS TEXT), ''), MAX(COALESCE(CAST(updated_at AS INTEGER), CAST(created_at AS INTEGER), 0)),
       COALESCE(CAST(role AS TEXT), ''), finished_at IS NOT NULL AND finished_at != 0
FROM messages
GROUP BY session_id
