-- Gives a session that has none a row, so the next statement has a row to
-- lock even on its first hook call; state stays NULL until one is saved.
INSERT INTO hook_state (session, updated_at) VALUES ($1, $2) ON CONFLICT (session) DO NOTHING;
