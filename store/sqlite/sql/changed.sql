-- ?1 is the change mark already seen; ?2 bounds the rows, -1 for none.
-- Returns the rows written since, in the order they were written.
SELECT id, record, seq FROM session_records WHERE seq > ?1 ORDER BY seq LIMIT ?2;
