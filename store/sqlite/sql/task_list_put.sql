INSERT INTO task_lists (name, list, updated_at) VALUES (?1, ?2, ?3)
ON CONFLICT (name) DO UPDATE SET list = excluded.list, updated_at = excluded.updated_at;
