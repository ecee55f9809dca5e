-- Built to the Hermes section of docs/formats.md: a state.db of a later Hermes. The v2 tables of
-- hermes_state.py @544ac55, grown the way Hermes' column reconciler grows
-- them (ALTER TABLE ... ADD COLUMN, names from hermes_state_common.py
-- SCHEMA_SQL: sessions.cwd, sessions.title). Results carry the later
-- revision's "revision" and items' "parent" (tools/todo_tool.py @038653c).
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER,
    finish_reason TEXT
);
ALTER TABLE sessions ADD COLUMN cwd TEXT;
ALTER TABLE sessions ADD COLUMN title TEXT;
ALTER TABLE sessions ADD COLUMN last_activity_at REAL;

INSERT INTO sessions (id, source, started_at, cwd, title) VALUES
  ('20260301_090000_feed01', 'tui', 1772355600.0, '/home/dev/parser', 'Parser refactor');

INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
  ('20260301_090000_feed01', 'user', 'Split the parser into phases', NULL, NULL, NULL, 1772355601.0),
  ('20260301_090000_feed01', 'assistant', NULL, NULL,
   '[{"id": "call_p1", "type": "function", "function": {"name": "todo_list", "arguments": "{\"todos\": [{\"id\": \"p\", \"content\": \"Phase split\", \"status\": \"in_progress\"}, {\"id\": \"p.1\", \"content\": \"Lexer\", \"status\": \"completed\", \"parent\": \"p\"}, {\"id\": \"p.2\", \"content\": \"Grammar\", \"status\": \"in_progress\", \"parent\": \"p\"}, {\"id\": \"q\", \"content\": \"Benchmarks\", \"status\": \"pending\"}]}"}}]',
   NULL, 1772355700.0),
  -- a status this code does not know: a newer Hermes wrote it.
  ('20260301_090000_feed01', 'tool', '{"todos": [{"id": "p", "content": "Phase split", "status": "in_progress"}, {"id": "p.1", "content": "Lexer", "status": "completed", "parent": "p"}, {"id": "p.2", "content": "Grammar", "status": "in_progress", "parent": "p"}, {"id": "q", "content": "Benchmarks", "status": "deferred"}], "revision": 7, "summary": {"total": 4, "pending": 0, "in_progress": 2, "completed": 1, "cancelled": 0}}',
   'call_p1', NULL, 'todo_list', 1772355700.5),
  ('20260301_090000_feed01', 'assistant', NULL, NULL,
   '[{"id": "call_p2", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"go test ./...\"}"}}]',
   NULL, 1772355800.0);
