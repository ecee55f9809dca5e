SELECT id, name, scope, created_at, machine, user_name FROM tokens ORDER BY created_at, id;
