SELECT id, name, scope, created_at, machine, user_name, hash FROM tokens WHERE id = ?1;
