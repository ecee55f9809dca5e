UPDATE requests SET request = ?2 WHERE id = ?1;
