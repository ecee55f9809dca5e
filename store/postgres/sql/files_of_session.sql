SELECT path, state FROM files WHERE session = $1 ORDER BY path;
