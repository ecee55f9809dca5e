-- Each session's newest message: its id, whether its data is JSON, its
-- role and whether the assistant has finished it (message.data is
-- MessageV2.Info as JSON). SQLite takes the bare columns of an aggregate
-- query from the row holding the max.
SELECT COALESCE(CAST(session_id AS TEXT), ''), MAX(COALESCE(CAST(time_created AS INTEGER), 0)),
       COALESCE(CAST(id AS TEXT), ''), json_valid(data),
       CASE WHEN json_valid(data) THEN COALESCE(json_extract(data, '$.role'), '') ELSE '' END,
       CASE WHEN json_valid(data) THEN json_extract(data, '$.time.completed') IS NOT NULL ELSE 0 END
FROM message
GROUP BY session_id
