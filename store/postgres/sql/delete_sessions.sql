DELETE FROM sessions WHERE id = ANY($1::text[]);
