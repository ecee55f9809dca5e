-- Whether tally_migrations is on the search path, without failing when it
-- is not.
SELECT to_regclass('tally_migrations') IS NOT NULL;
