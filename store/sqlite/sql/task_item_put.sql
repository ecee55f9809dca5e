INSERT INTO task_items (list, deleted, id, task) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (list, deleted, id) DO UPDATE SET task = excluded.task;
