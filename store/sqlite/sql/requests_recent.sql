-- Requests asked since ?1, newest first: those records show.
SELECT id, request FROM requests WHERE asked_at > ?1 ORDER BY asked_at DESC, id DESC;
