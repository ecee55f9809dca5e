-- Built to the Crush section of docs/formats.md (no real Crush capture
-- exists, see PROVENANCE.md). Schema: charmbracelet/crush
-- internal/db/migrations/20250424200609_initial.sql (verbatim, goose
-- markers dropped), then the todos column of
-- 20250812000000_add_todos_to_sessions.sql. Times are Unix seconds.
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,  -- Unix timestamp in seconds
    created_at INTEGER NOT NULL   -- Unix timestamp in seconds
);

CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at
AFTER UPDATE ON sessions
BEGIN
UPDATE sessions SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;

CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,  -- Unix timestamp in seconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in seconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);

CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);

CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts BLOB NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,  -- Unix timestamp in seconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in seconds
    finished_at INTEGER,  -- Unix timestamp in seconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);

CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END;

ALTER TABLE sessions ADD COLUMN todos TEXT;

-- Messages go in before their sessions: Crush's triggers set
-- sessions.updated_at to the wall clock on every message, and the
-- fixture's times must not depend on when it was built.
INSERT INTO messages (id, session_id, role, parts, created_at, updated_at, finished_at) VALUES
  ('m1', '9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b', 'user', '[]', 1767607200, 1767607200, NULL),
  ('m2', '9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b', 'assistant', '[]', 1767607590, 1767607700, 1767607700),
  ('m3', '5e0c1d2a-3b4c-4d5e-8f60-718293a4b5c6', 'user', '[]', 1767610000, 1767610000, NULL),
  ('m4', '5e0c1d2a-3b4c-4d5e-8f60-718293a4b5c6', 'assistant', '[]', 1767610090, 1767610095, NULL);

INSERT INTO sessions (id, parent_session_id, title, todos, created_at, updated_at) VALUES
  ('9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b', NULL, 'Fix the flaky test',
   '[{"content":"Reproduce the flake","status":"completed","active_form":"Reproducing the flake"},{"content":"Find the race","status":"in_progress","active_form":"Finding the race"},{"content":"Add a regression test","status":"pending","active_form":"Adding a regression test"},{"content":"Wait for CI","status":"blocked","active_form":"Waiting for CI"}]',
   1767607200, 1767607600),
  -- a sub-agent's task session (its id is the agent tool call's id)
  ('toolu_01Tk9', '9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b', 'List the tests',
   '[{"content":"List test files","status":"completed","active_form":"Listing test files"}]', 1767607300, 1767607350),
  -- the title generator's session: no list, not shown
  ('title-9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b', '9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b', 'Generate a title', NULL, 1767607201, 1767607202),
  -- a session that never wrote todos, its answer still streaming
  ('5e0c1d2a-3b4c-4d5e-8f60-718293a4b5c6', NULL, 'Explain the build', NULL, 1767610000, 1767610100);
