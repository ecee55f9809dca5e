-- As sessions.sql, for one agent (?1): walks sessions_agent backwards.
SELECT id, record FROM session_records
WHERE agent = ?1
  AND (?2 = '' OR instr(project, ?2) > 0)
  AND last_activity >= ?3
  AND (?5 = '' OR origin_machine = ?5)
  AND (?6 = '' OR origin_user = ?6)
ORDER BY last_activity DESC, id DESC
LIMIT ?4;
