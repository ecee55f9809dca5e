-- ?1 is the change mark already seen. Returns the rows written since, in
-- the order they were written.
SELECT id, record, seq FROM session_records WHERE seq > ?1 ORDER BY seq;
