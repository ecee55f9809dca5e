INSERT INTO tokens (id, name, scope, hash, created_at, machine, user_name) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7);
