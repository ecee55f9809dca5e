-- The rows a todo list is folded from: assistant rows whose tool_calls
-- may name the todo tool, and the tool rows answering one of those calls.
-- json_each is given '[]' for a tool_calls text that is not JSON, so one
-- damaged row cannot fail the whole read.
WITH calls AS (
    SELECT session_id, id, role, timestamp, tool_calls
    FROM messages
    WHERE role = 'assistant' AND tool_calls IS NOT NULL AND instr(tool_calls, '"todo') > 0
),
call_ids AS (
    SELECT json_extract(j.value, '$.id') AS call_id
    FROM calls c,
         json_each(CASE WHEN json_valid(c.tool_calls) AND json_type(c.tool_calls) = 'array'
                        THEN c.tool_calls ELSE '[]' END) j
    WHERE json_type(j.value) = 'object'
      AND json_extract(j.value, '$.function.name') IN ('todo', 'todo_list')
)
SELECT COALESCE(CAST(session_id AS TEXT), ''), role, COALESCE(CAST(timestamp AS REAL), 0),
       CAST(tool_calls AS BLOB), '', CAST(NULL AS BLOB), id
FROM calls
UNION ALL
SELECT COALESCE(CAST(session_id AS TEXT), ''), role, COALESCE(CAST(timestamp AS REAL), 0),
       CAST(NULL AS BLOB), COALESCE(CAST(tool_call_id AS TEXT), ''), CAST(content AS BLOB), id
FROM messages
WHERE role = 'tool' AND tool_call_id IN (SELECT call_id FROM call_ids)
ORDER BY 3, 7
