INSERT INTO needs_input (session, at) VALUES (?1, ?2)
ON CONFLICT (session) DO UPDATE SET at = max(at, excluded.at);
