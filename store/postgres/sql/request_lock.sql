-- FOR UPDATE: a decision holds the row from its read to its write, so it is taken once.
SELECT id, request FROM requests WHERE id = $1 FOR UPDATE;
