-- A list's row: the list without its tasks, and its revision.
SELECT list, rev FROM task_lists WHERE name = ?1;
