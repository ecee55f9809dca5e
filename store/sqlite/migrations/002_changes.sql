-- 002: a change mark per session row. Every upsert gives its row the next
-- mark, so "what changed since mark N" is an index range scan. It is how a
-- process learns of records another process committed (tally mcp writing
-- a task list while tally serve shows it).
ALTER TABLE sessions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sessions_seq ON sessions (seq);
