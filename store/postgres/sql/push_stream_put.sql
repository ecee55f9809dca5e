UPDATE push_streams SET mark = $3, user_name = $4, lines = lines + $5, updated_at = now()
WHERE machine = $1 AND stream = $2;
