-- ?6 is now (nanoseconds since the epoch).
INSERT INTO push_streams (machine, stream, mark, user_name, lines, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT (machine, stream) DO UPDATE SET
	mark = excluded.mark, user_name = excluded.user_name, lines = lines + excluded.lines, updated_at = excluded.updated_at;
