-- ?1 is the prefix and ?2 the first string after every string that has it,
-- so the primary key's b-tree answers with a range scan. ?3 bounds how many
-- candidates an ambiguous prefix reports.
SELECT id, record FROM session_records
WHERE id >= ?1 AND id < ?2
ORDER BY id
LIMIT ?3;
