SELECT key, session, project, marker, verdict, reason, plan, settled_at
FROM plan_markers
WHERE session = ?
ORDER BY at, key
