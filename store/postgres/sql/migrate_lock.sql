-- Held until the migrating transaction ends: one process migrates at a
-- time. The key is an arbitrary constant of tally's own.
SELECT pg_advisory_xact_lock(7426851063);
