SELECT key, session, project, marker, verdict, reason, plan, settled_at
FROM plan_markers
WHERE session = $1
ORDER BY at, key;
