UPDATE task_lists SET list = $2::json, updated_at = clock_timestamp() WHERE name = $1;
