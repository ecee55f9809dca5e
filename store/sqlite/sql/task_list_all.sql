SELECT name, list FROM task_lists ORDER BY updated_at DESC, name;
