UPDATE plan_markers SET verdict = ?, reason = ?, plan = ?, settled_at = ?
WHERE key = ? AND verdict = 'pending'
