-- Each session that is not hidden, oldest first: its title (name, else the
-- older description), folder, type, times as Unix seconds (Goose writes
-- them as text: CURRENT_TIMESTAMP's, datetime('now')'s, or chrono's
-- RFC 3339), and only the todo member of extension_data, so the rest of
-- it (the enabled extensions' configurations, which may hold their
-- environment) never leaves SQLite. bad is 1 when extension_data is not
-- JSON. The verbs are the columns an older schema may lack (agentdb.Text).
SELECT CAST(id AS TEXT), %s, %s, COALESCE(CAST(working_dir AS TEXT), ''), %s,
       COALESCE(CAST(strftime('%%s', created_at) AS INTEGER), 0),
       COALESCE(CAST(strftime('%%s', updated_at) AS INTEGER), 0),
       CASE WHEN json_valid(extension_data) THEN extension_data -> '$."todo.v0"' END,
       extension_data IS NOT NULL AND extension_data != '' AND NOT json_valid(extension_data)
FROM sessions
WHERE id IS NOT NULL
ORDER BY created_at, id
