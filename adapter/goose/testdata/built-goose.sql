-- Built to the Goose section of docs/formats.md (Goose's CLI cannot be
-- installed here; see README.md). Schema: block/goose
-- crates/goose/src/session/session_manager.rs (SessionStorage::create, the
-- tables of schema v5) with the columns migrations 6-13 of
-- crates/goose/src/session/migrations.rs add; values as Goose writes them:
-- ids YYYYMMDD_N, created_at as sqlx writes a chrono DateTime<Utc>
-- (RFC 3339), updated_at as datetime('now'), extension_data as
-- serde_json writes ExtensionData ("todo.v0": {"content": ...}),
-- messages' content_json as a Vec<MessageContent> and created_timestamp
-- in Unix seconds.
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (13);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT,
    provider_name TEXT,
    model_config_json TEXT,
    goose_mode TEXT NOT NULL DEFAULT 'auto',
    thread_id TEXT,
    archived_at TIMESTAMP,
    project_id TEXT,
    accumulated_cost REAL
);

CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT,
    message_id TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);

-- A session whose model kept its todo: a checklist among notes, a nested
-- sub-task, a box in a code block that is not an item; the enabled
-- extensions beside it hold an environment value Tally must never read.
INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data, goose_mode)
VALUES ('20261126_1', 'Fix the flaky test', TRUE, 'user', '/src/app',
        '2026-11-26T10:00:00.250+00:00', '2026-11-26 10:08:20',
        '{"enabled_extensions.v0":{"extensions":[{"type":"stdio","name":"search","cmd":"srch","args":[],"envs":{"SEARCH_TOKEN":"sk-do-not-show"},"env_keys":[],"timeout":300}]},"todo.v0":{"content":"## Flaky test\n\n- [x] Reproduce the flake\n- [ ] Find the race\n  - [x] Run with -race\n- [ ] Add a regression test\n\nNotes: the CI runner has 2 cores.\n```\n- [ ] not an item\n```\n"}}',
        'auto');
INSERT INTO messages (session_id, role, content_json, created_timestamp, message_id) VALUES
  ('20261126_1', 'user', '[{"type":"text","text":"Fix the flaky test in api_test.go"}]', 1795687200, 'msg_1'),
  ('20261126_1', 'assistant', '[{"type":"text","text":"Writing the plan."},{"type":"toolRequest","id":"call_1","toolCall":{"status":"success","value":{"name":"todo__todo_write","arguments":{"content":"- [ ] Reproduce the flake"}}}}]', 1795687210, 'msg_2'),
  ('20261126_1', 'user', '[{"type":"toolResponse","id":"call_1","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"Updated (25 chars)"}],"isError":false}}}]', 1795687211, 'msg_3'),
  ('20261126_1', 'assistant', '[{"type":"text","text":"Reproduced it; I will look for the race next. Shall I go on?"}]', 1795687800, 'msg_4');

-- A session with no todo, still running a tool.
INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, extension_data)
VALUES ('20261126_2', 'Explain the Makefile', 'user', '/src/tool',
        '2026-11-26T11:00:00+00:00', '2026-11-26 11:00:05', '{}');
INSERT INTO messages (session_id, role, content_json, created_timestamp, message_id) VALUES
  ('20261126_2', 'user', '[{"type":"text","text":"What does make dist do?"}]', 1795690801, 'msg_5'),
  ('20261126_2', 'assistant', '[{"type":"toolRequest","id":"call_2","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"cat Makefile"}}}}]', 1795690810, 'msg_6');

-- A sub-agent's session, with a step marked under way.
INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, extension_data)
VALUES ('20261126_3', 'Fan-out [0] audit', 'sub_agent', '/src/app',
        '2026-11-26T10:02:00+00:00', '2026-11-26 10:03:00',
        '{"todo.v0":{"content":"1. [x] List the handlers\n2. [~] Check each for a timeout\n3. [?] Ask about retries"}}');

-- Goose's own hidden bookkeeping: not a session to show.
INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, extension_data)
VALUES ('20261126_4', 'hidden', 'hidden', '/src/app', '2026-11-26T10:00:00+00:00', '2026-11-26 10:00:00',
        '{"todo.v0":{"content":"- [ ] internal"}}');
