SELECT state FROM hook_state WHERE session = ?1;
