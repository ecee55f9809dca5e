-- Each session's most recently written message and whether it is
-- finished. Crush's times are whole seconds, so the messages of a quick
-- turn share one: among those of a session's newest second the last
-- inserted (the highest rowid) is the newest, not whichever row an
-- aggregate happens to take. SQLite takes the bare columns of an
-- aggregate query from the row holding the max.
WITH t AS (
  SELECT rowid AS r, COALESCE(CAST(session_id AS TEXT), '') AS sid,
         COALESCE(CAST(updated_at AS INTEGER), CAST(created_at AS INTEGER), 0) AS ts,
         role, finished_at
  FROM messages),
newest AS (SELECT sid, MAX(ts) AS ts FROM t GROUP BY sid)
SELECT t.sid, t.ts, COALESCE(CAST(t.role AS TEXT), ''), t.finished_at IS NOT NULL AND t.finished_at != 0, MAX(t.r)
FROM t JOIN newest ON t.sid = newest.sid AND t.ts = newest.ts
GROUP BY t.sid
