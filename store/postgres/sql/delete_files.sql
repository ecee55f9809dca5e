DELETE FROM files WHERE path = ANY($1::text[]);
