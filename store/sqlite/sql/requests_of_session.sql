-- A session's requests, newest first.
SELECT id, request FROM requests WHERE session = ?1 ORDER BY asked_at DESC, id DESC;
