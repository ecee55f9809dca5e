-- As records.sql, for one agent ($1): walks sessions_agent backwards.
SELECT id, record FROM sessions
WHERE agent = $1
  AND ($2::text = '' OR strpos(project, $2::text) > 0)
  AND last_activity >= $3
ORDER BY last_activity DESC, id DESC
LIMIT $4;
