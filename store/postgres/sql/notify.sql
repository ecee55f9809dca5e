-- $1 is the channel. Delivered when the transaction commits, to every
-- session that listens on it; the payload $2 is the newest mark, which a
-- listener does not need (it reads Changed from its own mark) but which
-- shows what happened to anyone watching with psql.
SELECT pg_notify($1, $2::text);
