-- The requests of these sessions asked since $2, newest first: those records show.
SELECT id, request FROM requests WHERE session = ANY($1) AND asked_at > $2 ORDER BY asked_at DESC, id DESC;
