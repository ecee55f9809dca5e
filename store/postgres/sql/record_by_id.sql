SELECT id, record FROM sessions WHERE id = $1;
