DELETE FROM hook_state WHERE updated_at < $1;
