INSERT INTO tally_migrations (version, name) VALUES ($1, $2);
