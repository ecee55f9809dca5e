DELETE FROM needs_input WHERE session = ANY($1::text[]);
