-- $1 is the project substring, '' for any; $2 the clamped Since (the
-- smallest int64 when unset); $3 the limit, NULL for none. Walks
-- sessions_last_activity backwards and stops at the limit.
SELECT id, record FROM sessions
WHERE ($1::text = '' OR strpos(project, $1::text) > 0)
  AND last_activity >= $2
ORDER BY last_activity DESC, id DESC
LIMIT $3;
