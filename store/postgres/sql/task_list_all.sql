SELECT name, list FROM task_lists WHERE list IS NOT NULL ORDER BY updated_at DESC, name;
