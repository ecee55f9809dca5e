DELETE FROM requests WHERE asked_at < ?1;
