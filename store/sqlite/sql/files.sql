SELECT path, state FROM files ORDER BY path;
