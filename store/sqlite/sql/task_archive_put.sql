-- A generation is archived once; a retried transaction finds it there.
INSERT INTO task_archive (name, generation, list, archived_at) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (name, generation) DO NOTHING;
