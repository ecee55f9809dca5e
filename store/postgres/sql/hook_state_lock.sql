-- Locks the session's row until the transaction ends: the hook processes
-- of one session wait here and then read what the last one saved.
SELECT state FROM hook_state WHERE session = $1 FOR UPDATE;
