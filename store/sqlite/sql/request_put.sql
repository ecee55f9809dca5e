INSERT INTO requests (id, session, asked_at, request) VALUES (?1, ?2, ?3, ?4);
