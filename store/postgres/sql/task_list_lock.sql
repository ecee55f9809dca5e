-- Locks the list's row until the transaction ends: calls on the same list,
-- through any replica, wait here and then read what the last one wrote.
SELECT list FROM task_lists WHERE name = $1 FOR UPDATE;
