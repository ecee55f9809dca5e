-- Every task of every team board, in each board's order (task_0001, …).
SELECT rowid, CAST(team_name AS TEXT), CAST(task_id AS TEXT), COALESCE(CAST(title AS TEXT), ''),
       COALESCE(CAST(description AS TEXT), ''), COALESCE(CAST(status AS TEXT), ''),
       COALESCE(CAST(assignee AS TEXT), ''), COALESCE(CAST(depends_on_json AS TEXT), ''),
       COALESCE(CAST(updated_at AS TEXT), '')
FROM team_tasks
WHERE team_name IS NOT NULL AND task_id IS NOT NULL
ORDER BY 2, 3
