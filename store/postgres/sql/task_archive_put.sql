-- A generation is archived once.
INSERT INTO task_archive (name, generation, list) VALUES ($1, $2, $3::json)
ON CONFLICT (name, generation) DO NOTHING;
