SELECT name, list FROM task_archive WHERE name = $1 ORDER BY generation;
