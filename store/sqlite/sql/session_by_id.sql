SELECT id, record FROM session_records WHERE id = ?1;
