SELECT coalesce(max(seq), 0) FROM sessions;
