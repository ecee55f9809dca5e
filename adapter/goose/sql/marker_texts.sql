-- The text blocks of the assistant messages that may hold a progress
-- marker, in the order written. The instr test is the prefilter (the
-- keyword in any case, as package marker reads it); a message that is not
-- JSON is left out before its blocks are listed. A block's type and text
-- are read through the message by the block's path, as a block need not
-- be an object.
SELECT COALESCE(CAST(m.session_id AS TEXT), ''), m.id, COALESCE(CAST(m.created_timestamp AS INTEGER), 0),
       CAST(json_extract(m.content_json, e.fullkey || '.text') AS BLOB)
FROM messages m, json_each(m.content_json) e
WHERE m.role = 'assistant' AND instr(lower(m.content_json), 'progress:') > 0 AND json_valid(m.content_json)
  AND json_extract(m.content_json, e.fullkey || '.type') = 'text'
ORDER BY m.id, e.key
