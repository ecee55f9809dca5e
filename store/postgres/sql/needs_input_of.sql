-- The marks of the sessions $1 a commit writes. Read after take_marks.sql,
-- so a hook call's mark committed before this commit is seen (see
-- hooks.go).
SELECT session, at FROM needs_input WHERE session = ANY($1::text[]);
