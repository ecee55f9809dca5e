-- ?3 is now (nanoseconds since the epoch).
INSERT INTO hook_state (session, state, updated_at) VALUES (?1, ?2, ?3)
ON CONFLICT (session) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at;
