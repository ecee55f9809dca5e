INSERT OR IGNORE INTO plan_markers (key, session, project, at, marker, verdict, found_at)
VALUES (?, ?, ?, ?, ?, 'pending', ?)
