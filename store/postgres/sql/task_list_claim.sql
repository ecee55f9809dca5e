-- Gives a list that has none yet a row, so that the next statement has a
-- row to lock even on the first call. The row holds NULL until this
-- transaction writes the list; if it rolls back, the row goes with it.
-- A call that finds the row of another transaction not yet committed
-- waits for that transaction to end.
INSERT INTO task_lists (name) VALUES ($1) ON CONFLICT (name) DO NOTHING;
