-- ?1 is the project substring, '' for any; ?2 the clamped Since (the
-- smallest int64 when unset); ?3 the limit, -1 for none; ?4 the machine and
-- ?5 the user, '' for any. Walks sessions_last_activity backwards and stops
-- at the limit.
SELECT id, record FROM session_records
WHERE (?1 = '' OR instr(project, ?1) > 0)
  AND last_activity >= ?2
  AND (?4 = '' OR origin_machine = ?4)
  AND (?5 = '' OR origin_user = ?5)
ORDER BY last_activity DESC, id DESC
LIMIT ?3;
