SELECT key, session, project, marker
FROM plan_markers
WHERE verdict = 'pending'
ORDER BY at, key
LIMIT $1;
