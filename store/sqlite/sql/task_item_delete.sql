-- A live task that left the list (deleted tasks are kept as new rows).
DELETE FROM task_items WHERE list = ?1 AND deleted = 0 AND id = ?2;
