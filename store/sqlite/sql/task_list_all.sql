SELECT name, list, rev FROM task_lists ORDER BY updated_at DESC, name;
