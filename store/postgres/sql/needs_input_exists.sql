SELECT EXISTS (SELECT 1 FROM needs_input WHERE session = $1);
