-- The tokens a reference names: its id, else every token of that name.
SELECT id, name, scope, created_at, machine, user_name FROM tokens WHERE id = ?1 OR name = ?1 ORDER BY (id = ?1) DESC, id LIMIT 6;
