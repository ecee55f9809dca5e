-- A new round forgets the tasks deleted in the last one.
DELETE FROM task_items WHERE list = ?1 AND deleted > 0;
