SELECT state FROM files WHERE path = $1;
