-- $1 is how many records the transaction writes (0 for none). The row lock
-- this takes is held until the transaction ends, which serialises every
-- transaction that writes records or files, so marks are committed in
-- their order; see change_marks in 001_init.sql.
UPDATE change_marks SET mark = mark + $1 RETURNING mark;
