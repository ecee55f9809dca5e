-- Built, not captured: the tables of openclaw-agent.sqlite Tally reads, as
-- OpenClaw 2026.9.6 creates them (columns Tally does not read left out),
-- holding what the capture could not show: a spawned child running and one
-- that failed with a card of its own, a tool that failed, a run that ended
-- idle-timed-out (a stall), a cleared card.
CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL, entry_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL, status TEXT, created_at INTEGER, created_via TEXT,
  parent_session_key TEXT, spawned_by TEXT, label TEXT, display_name TEXT) STRICT;
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL, created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, status TEXT, parent_session_key TEXT, display_name TEXT) STRICT;
CREATE TABLE session_progress_cards (
  session_key TEXT NOT NULL PRIMARY KEY, markdown TEXT, steps_json TEXT, revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, created_at INTEGER NOT NULL,
  event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT, PRIMARY KEY (session_id, seq)) STRICT;
CREATE TABLE trajectory_runtime_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT, event_json TEXT NOT NULL,
  created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq)) STRICT;

-- The parent: "docs-refresh" in gateway mode, its card half done.
INSERT INTO session_nodes VALUES ('agent:main:docs-refresh', 'p1', '{}', 1795681300000, 'running', 1795681200000, 'run', NULL, NULL, 'docs-refresh', 'docs-refresh');
INSERT INTO session_windows VALUES ('p1', 'agent:main:docs-refresh', 1795681200000, 1795681300000, 'running', NULL, NULL);
INSERT INTO session_progress_cards VALUES ('agent:main:docs-refresh', NULL,
  '[{"step":"Survey the docs folder","status":"completed"},{"step":"Refresh the API page","status":"in_progress"},{"step":"Check the links","status":"pending"}]',
  2, 1795681210000, 1795681250000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES
  ('p1', 0, '{"type":"session","version":4,"id":"p1","timestamp":"2026-11-26T08:20:00.000Z","cwd":"/src/docs"}', 1795681200000),
  ('p1', 1, '{"type":"message","id":"m1","parentId":null,"timestamp":"2026-11-26T08:20:01.000Z","message":{"role":"user","content":"Refresh the docs"}}', 1795681201000),
  ('p1', 2, '{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-11-26T08:20:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"exec","arguments":{"command":"go test ./..."}}],"stopReason":"toolUse"}}', 1795681202000);
INSERT INTO trajectory_runtime_events VALUES
  ('p1', 1, 'r1', '{"type":"tool.call","ts":"2026-11-26T08:20:01.500Z","data":{"toolCallId":"c0","name":"read","args":{"path":"/src/docs/api.md"}}}', 1),
  ('p1', 2, 'r1', '{"type":"tool.result","ts":"2026-11-26T08:20:01.600Z","data":{"toolCallId":"c0","name":"read","success":false}}', 2),
  ('p1', 3, 'r1', '{"type":"tool.call","ts":"2026-11-26T08:20:02.000Z","data":{"toolCallId":"c1","name":"exec","args":{"command":"go test ./..."}}}', 3);

-- Its children: one still running, one failed with a card of its own.
INSERT INTO session_nodes VALUES ('agent:main:subagent:aaa', 'k1', '{}', 1795681220000, 'running', 1795681210000, 'spawn', 'agent:main:docs-refresh', 'agent:main:docs-refresh', 'check links', NULL);
INSERT INTO session_windows VALUES ('k1', 'agent:main:subagent:aaa', 1795681210000, 1795681220000, NULL, NULL, NULL);
INSERT INTO session_nodes VALUES ('agent:main:subagent:bbb', 'k2', '{}', 1795681230000, 'failed', 1795681211000, 'spawn', 'agent:main:docs-refresh', 'agent:main:docs-refresh', 'fix images', NULL);
INSERT INTO session_windows VALUES ('k2', 'agent:main:subagent:bbb', 1795681211000, 1795681230000, NULL, NULL, NULL);
INSERT INTO session_progress_cards VALUES ('agent:main:subagent:bbb', NULL, '[{"step":"Find broken images","status":"completed"}]', 1, 1795681212000, 1795681212000);

-- A session whose run ended idle-timed-out after its last message, its card cleared.
INSERT INTO session_nodes VALUES ('agent:main:explicit:s2', 's2', '{}', 1795681400000, NULL, 1795681390000, 'run', NULL, NULL, NULL, NULL);
INSERT INTO session_windows VALUES ('s2', 'agent:main:explicit:s2', 1795681390000, 1795681400000, NULL, NULL, NULL);
INSERT INTO session_progress_cards VALUES ('agent:main:explicit:s2', NULL, NULL, 3, 1795681391000, 1795681399000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES
  ('s2', 0, '{"type":"session","version":4,"id":"s2","timestamp":"2026-11-26T08:23:10.000Z","cwd":"/src/api"}', 1795681390000),
  ('s2', 1, '{"type":"message","id":"n1","parentId":null,"timestamp":"2026-11-26T08:23:11.000Z","message":{"role":"user","content":"Tidy the API"}}', 1795681391000);
INSERT INTO trajectory_runtime_events VALUES
  ('s2', 1, 'r2', '{"type":"model.completed","ts":"2026-11-26T08:23:19.000Z","data":{"aborted":true,"idleTimedOut":true}}', 1);
