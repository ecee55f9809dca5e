SELECT list FROM task_lists WHERE name = $1 AND list IS NOT NULL;
