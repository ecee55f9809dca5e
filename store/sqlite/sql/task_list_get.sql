SELECT list FROM task_lists WHERE name = ?1;
