SELECT coalesce(max(version), 0) FROM tally_migrations;
