SELECT list, deleted, id, task FROM task_items ORDER BY list, deleted;
