SELECT id, request FROM requests WHERE id = ?1;
