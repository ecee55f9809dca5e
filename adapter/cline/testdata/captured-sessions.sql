PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE sessions (
		session_id TEXT PRIMARY KEY,
		source TEXT NOT NULL,
		pid INTEGER NOT NULL,
		started_at TEXT NOT NULL,
		ended_at TEXT,
		exit_code INTEGER,
		status TEXT NOT NULL,
		status_lock INTEGER NOT NULL DEFAULT 0,
		interactive INTEGER NOT NULL,
		provider TEXT NOT NULL,
		model TEXT NOT NULL,
		cwd TEXT NOT NULL,
		workspace_root TEXT NOT NULL,
		team_name TEXT,
		enable_tools INTEGER NOT NULL,
		enable_spawn INTEGER NOT NULL,
		enable_teams INTEGER NOT NULL,
		parent_session_id TEXT,
		parent_agent_id TEXT,
		agent_id TEXT,
		conversation_id TEXT,
		is_subagent INTEGER NOT NULL DEFAULT 0,
		prompt TEXT,
		metadata_json TEXT,
		transcript_path TEXT NOT NULL DEFAULT '',
		hook_path TEXT NOT NULL,
		messages_path TEXT,
		updated_at TEXT NOT NULL
	);
INSERT INTO sessions VALUES('1795682285468_srgpd','cli',28333,'2026-11-26T08:38:05.474Z','2026-11-26T08:38:05.990Z',0,'completed',2,0,'openai-compatible','claude-sonnet-4-5','/tmp/cap2/runs/cline/team-tasks/work','/tmp/cap2/runs/cline/team-tasks/work','team-U7u9Q',1,1,1,NULL,NULL,NULL,NULL,0,'Create greet.py with a greet(name) function, add a test and update the README. Track the work as tasks.','{"sessionHistoryOrigin":{"mode":"user","version":"3.0.65"},"title":"Create greet.py with a greet(name) function, add a test and update the README. Track the work as tasks.","totalCost":0,"aggregatedAgentsCost":0,"usage":{"inputTokens":12500,"outputTokens":668,"cacheReadTokens":0,"cacheWriteTokens":0,"totalCost":0},"aggregateUsage":{"inputTokens":12500,"outputTokens":668,"cacheReadTokens":0,"cacheWriteTokens":0,"totalCost":0}}','','','/tmp/cap2/runs/cline/team-tasks/home/.cline/data/sessions/1795682285468_srgpd/1795682285468_srgpd.messages.json','2026-11-26T08:38:05.990Z');
CREATE TABLE subagent_spawn_queue (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		root_session_id TEXT NOT NULL,
		parent_agent_id TEXT NOT NULL,
		task TEXT,
		system_prompt TEXT,
		created_at TEXT NOT NULL,
		consumed_at TEXT
	);
CREATE TABLE schedules (
		schedule_id TEXT PRIMARY KEY,
		name TEXT NOT NULL,
		cron_pattern TEXT NOT NULL,
		prompt TEXT NOT NULL,
		provider TEXT NOT NULL,
		model TEXT NOT NULL,
		mode TEXT NOT NULL DEFAULT 'act',
		workspace_root TEXT,
		cwd TEXT,
		system_prompt TEXT,
		max_iterations INTEGER,
		timeout_seconds INTEGER,
		max_parallel INTEGER NOT NULL DEFAULT 1,
		enabled INTEGER NOT NULL DEFAULT 1,
		created_at TEXT NOT NULL,
		updated_at TEXT NOT NULL,
		last_run_at TEXT,
		next_run_at TEXT,
		claim_token TEXT,
		claim_started_at TEXT,
		claim_until_at TEXT,
		created_by TEXT,
		tags TEXT,
		metadata_json TEXT
	);
CREATE TABLE schedule_executions (
		execution_id TEXT PRIMARY KEY,
		schedule_id TEXT NOT NULL,
		session_id TEXT,
		triggered_at TEXT NOT NULL,
		started_at TEXT,
		ended_at TEXT,
		status TEXT NOT NULL,
		exit_code INTEGER,
		error_message TEXT,
		iterations INTEGER,
		tokens_used INTEGER,
		cost_usd REAL,
		FOREIGN KEY (schedule_id) REFERENCES schedules(schedule_id) ON DELETE CASCADE,
		FOREIGN KEY (session_id) REFERENCES sessions(session_id) ON DELETE SET NULL
	);
DELETE FROM sqlite_sequence;
CREATE INDEX idx_schedule_executions_schedule
	ON schedule_executions(schedule_id, triggered_at DESC);
CREATE INDEX idx_schedules_next_run
	ON schedules(enabled, next_run_at);
COMMIT;
