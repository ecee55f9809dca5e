-- The stream's row, made at mark 0 the first time the stream is seen, and
-- locked until the transaction ends (an upsert that updates locks the row
-- it finds): a batch sent again while the first is being applied (a retry
-- after a lost answer) waits here, then finds the mark moved. Returns the
-- mark.
INSERT INTO push_streams (machine, stream, mark, user_name) VALUES ($1, $2, 0, $3)
ON CONFLICT (machine, stream) DO UPDATE SET mark = push_streams.mark
RETURNING mark;
