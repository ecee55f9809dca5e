-- Built to the Hermes section of docs/formats.md (no real Hermes capture
-- exists, see PROVENANCE.md). Schema: hermes_state.py SCHEMA_SQL and FTS_SQL at
-- NousResearch/hermes-agent@544ac55 (SCHEMA_VERSION 2), verbatim.
-- Rows: what todo_tool.py @544ac55 / @038653c returns for these calls;
-- tool_calls as json.dumps writes them (", " and ": " separators).
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER NOT NULL
);

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

CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source);
CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp);

CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts5(
    content,
    content=messages,
    content_rowid=id
);

CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
END;

INSERT INTO schema_version (version) VALUES (2);

-- Conversation A: compressed once, so two sessions in one chain.
INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason) VALUES
  ('20260105_100000_a1b2c3', 'cli', 'anthropic/claude-opus-4', 1767607200.0, 1767609000.0, 'compression');
INSERT INTO sessions (id, source, model, parent_session_id, started_at) VALUES
  ('20260105_103000_d4e5f6', 'cli', 'anthropic/claude-opus-4', '20260105_100000_a1b2c3', 1767609000.5);
-- Conversation B: a branch of A's tip (its parent did not end by
-- compression), so a conversation of its own; it ended normally.
INSERT INTO sessions (id, source, parent_session_id, started_at, ended_at, end_reason) VALUES
  ('20260105_110000_0a0b0c', 'cli', '20260105_103000_d4e5f6', 1767610800.0, 1767611400.0, 'user_exit');

INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
  ('20260105_100000_a1b2c3', 'user', 'Refactor the parser
and keep the old API', NULL, NULL, NULL, 1767607201.0),
  -- todo_list (later revision): replace. Hermes moves the in_progress item
  -- ahead of earlier pending ones, so the result's order differs from the
  -- arguments'.
  ('20260105_100000_a1b2c3', 'assistant', NULL, NULL,
   '[{"id": "call_1", "type": "function", "function": {"name": "todo_list", "arguments": "{\"todos\": [{\"id\": \"1\", \"content\": \"Read the parser\", \"status\": \"pending\"}, {\"id\": \"2\", \"content\": \"Write tests\", \"status\": \"in_progress\"}, {\"id\": \"3\", \"content\": \"Ship it\", \"status\": \"pending\"}]}"}}]',
   NULL, 1767607210.0),
  ('20260105_100000_a1b2c3', 'tool', '{"todos": [{"id": "2", "content": "Write tests", "status": "in_progress"}, {"id": "1", "content": "Read the parser", "status": "pending"}, {"id": "3", "content": "Ship it", "status": "pending"}], "revision": 1, "summary": {"total": 3, "pending": 2, "in_progress": 1, "completed": 0, "cancelled": 0}}',
   'call_1', NULL, 'todo_list', 1767607210.5),
  -- merge: 2 completed, 1 in progress, new id 4 with a status Hermes
  -- refuses (stored as pending), an item without id (skipped).
  ('20260105_100000_a1b2c3', 'assistant', NULL, NULL,
   '[{"id": "call_2", "type": "function", "function": {"name": "todo_list", "arguments": "{\"todos\": [{\"id\": \"2\", \"status\": \"completed\"}, {\"id\": \"1\", \"status\": \"in_progress\"}, {\"id\": \"4\", \"content\": \"Update the docs\", \"status\": \"blocked\"}, {\"content\": \"No id here\", \"status\": \"pending\"}], \"merge\": true}"}}]',
   NULL, 1767607300.0),
  ('20260105_100000_a1b2c3', 'tool', '{"todos": [{"id": "2", "content": "Write tests", "status": "completed"}, {"id": "1", "content": "Read the parser", "status": "in_progress"}, {"id": "3", "content": "Ship it", "status": "pending"}, {"id": "4", "content": "Update the docs", "status": "pending"}], "revision": 2, "summary": {"total": 4, "pending": 2, "in_progress": 1, "completed": 1, "cancelled": 0}}',
   'call_2', NULL, 'todo_list', 1767607300.5),
  -- a read: no todos.
  ('20260105_100000_a1b2c3', 'assistant', NULL, NULL,
   '[{"id": "call_3", "type": "function", "function": {"name": "todo_list", "arguments": "{}"}}, {"id": "call_x", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"ls todos\"}"}}]',
   NULL, 1767607400.0),
  ('20260105_100000_a1b2c3', 'tool', '{"todos": [{"id": "2", "content": "Write tests", "status": "completed"}, {"id": "1", "content": "Read the parser", "status": "in_progress"}, {"id": "3", "content": "Ship it", "status": "pending"}, {"id": "4", "content": "Update the docs", "status": "pending"}], "revision": 2, "summary": {"total": 4, "pending": 2, "in_progress": 1, "completed": 1, "cancelled": 0}}',
   'call_3', NULL, 'todo_list', 1767607400.5),
  ('20260105_100000_a1b2c3', 'tool', '{"todos": [{"id": "9", "content": "not a todo result", "status": "pending"}]}',
   'call_x', NULL, 'terminal', 1767607401.0),
  -- after compression, in the child session: a merge whose result never
  -- came (the agent was interrupted): its arguments are applied.
  ('20260105_103000_d4e5f6', 'user', '[Your active task list was preserved across context compression]
- [>] 1. Read the parser (in_progress)', NULL, NULL, NULL, 1767609001.0),
  ('20260105_103000_d4e5f6', 'assistant', NULL, NULL,
   '[{"id": "call_4", "type": "function", "function": {"name": "todo_list", "arguments": "{\"todos\": [{\"id\": \"1\", \"status\": \"completed\"}, {\"id\": \"3\", \"status\": \"cancelled\"}, {\"id\": \"4\", \"status\": \"finished\"}], \"merge\": true}"}}]',
   NULL, 1767609100.0),
  ('20260105_103000_d4e5f6', 'assistant', 'The parser is refactored; docs are next.', NULL, NULL, NULL, 1767609200.0);

INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
  ('20260105_110000_0a0b0c', 'user', 'Try the other approach', NULL, NULL, NULL, 1767610801.0),
  ('20260105_110000_0a0b0c', 'assistant', NULL, NULL,
   '[{"id": "call_b1", "type": "function", "function": {"name": "todo", "arguments": "{\"todos\": [{\"id\": \"a\", \"content\": \"Plan\", \"status\": \"completed\"}, {\"id\": \"b\", \"content\": \"Build\", \"status\": \"cancelled\"}]}"}}]',
   NULL, 1767610810.0),
  ('20260105_110000_0a0b0c', 'tool', '{"todos": [{"id": "a", "content": "Plan", "status": "completed"}, {"id": "b", "content": "Build", "status": "cancelled"}], "summary": {"total": 2, "pending": 0, "in_progress": 0, "completed": 1, "cancelled": 1}}',
   'call_b1', NULL, 'todo', 1767610810.5),
  -- a failed call: the list did not change.
  ('20260105_110000_0a0b0c', 'assistant', NULL, NULL,
   '[{"id": "call_b2", "type": "function", "function": {"name": "todo", "arguments": "{\"todos\": \"oops\"}"}}]',
   NULL, 1767610900.0),
  ('20260105_110000_0a0b0c', 'tool', '{"error": "todos must be a list of objects, got unparseable string"}',
   'call_b2', NULL, 'todo', 1767610900.5),
  -- a replace with no result: duplicate ids collapse to the last, a
  -- status Hermes refuses becomes pending, a missing id "?".
  ('20260105_110000_0a0b0c', 'assistant', NULL, NULL,
   '[{"id": "call_b3", "type": "function", "function": {"name": "todo", "arguments": "{\"todos\": [{\"id\": \"x\", \"content\": \"Old x\", \"status\": \"pending\"}, {\"id\": \"y\", \"content\": \"Review\", \"status\": \"done\"}, {\"id\": \"x\", \"content\": \"New x\", \"status\": \" IN_PROGRESS \"}, {\"content\": \"\", \"status\": \"completed\"}]}"}}]',
   NULL, 1767611000.0);
