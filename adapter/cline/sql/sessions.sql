-- Every session: its folder, times, state and title (metadata_json.title,
-- else the prompt). A sub-agent's or teammate's session is left to its lead.
SELECT rowid, CAST(session_id AS TEXT), COALESCE(CAST(cwd AS TEXT), ''),
       COALESCE(CAST(started_at AS TEXT), ''), COALESCE(CAST(ended_at AS TEXT), ''),
       COALESCE(CAST(updated_at AS TEXT), ''), COALESCE(CAST(status AS TEXT), ''),
       COALESCE(CASE WHEN json_valid(metadata_json) THEN json_extract(metadata_json, '$.title') END, CAST(prompt AS TEXT), '')
FROM sessions
WHERE session_id IS NOT NULL AND COALESCE(is_subagent, 0) = 0
ORDER BY 4, 2
