-- A list's tasks: the live ones (deleted = 0), then those deleted in this
-- round in the order they were deleted.
SELECT deleted, id, task FROM task_items WHERE list = ?1 ORDER BY deleted;
