SELECT id, name, scope, created_at, hash FROM tokens WHERE id = ?1;
