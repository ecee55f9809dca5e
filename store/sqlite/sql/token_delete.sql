DELETE FROM tokens WHERE id = ?1;
