-- Gives a stream seen for the first time its row at mark 0, so the next
-- statement has a row to lock.
INSERT INTO push_streams (machine, stream, mark, user_name) VALUES ($1, $2, 0, $3)
ON CONFLICT (machine, stream) DO NOTHING;
