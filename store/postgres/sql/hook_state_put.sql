UPDATE hook_state SET state = $2, updated_at = $3 WHERE session = $1;
