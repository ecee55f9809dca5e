INSERT INTO task_lists (name, list, rev, updated_at) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (name) DO UPDATE SET list = excluded.list, rev = excluded.rev, updated_at = excluded.updated_at;
