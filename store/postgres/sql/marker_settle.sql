-- The first result stands: only a pending row is settled. A replica
-- settling the same key at once waits for this row's lock, then finds it
-- settled and changes nothing.
UPDATE plan_markers SET verdict = $1, reason = $2, plan = $3, settled_at = $4
WHERE key = $5 AND verdict = 'pending';
