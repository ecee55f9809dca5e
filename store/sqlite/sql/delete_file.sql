DELETE FROM files WHERE path = ?1;
