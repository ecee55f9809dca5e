SELECT id, name, scope, created_at FROM tokens ORDER BY created_at, id;
