DELETE FROM needs_input WHERE session = ?1;
