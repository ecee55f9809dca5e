PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE team_store_schema_version (
				lock INTEGER PRIMARY KEY CHECK (lock = 1),
				version INTEGER NOT NULL
			);
INSERT INTO team_store_schema_version VALUES(1,1);
CREATE TABLE team_events (
				id INTEGER PRIMARY KEY AUTOINCREMENT,
				team_name TEXT NOT NULL,
				ts TEXT NOT NULL,
				event_type TEXT NOT NULL,
				payload_json TEXT NOT NULL,
				causation_id TEXT,
				correlation_id TEXT
			);
INSERT INTO team_events VALUES(1,'1795682285468_srgpd','2026-11-26T08:38:05.653Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0001","title":"Write greet.py","description":"Create greet.py with a greet(name) function","status":"pending","createdAt":"2026-11-26T08:38:05.652Z","updatedAt":"2026-11-26T08:38:05.652Z","createdBy":"1795682285468_srgpd","dependsOn":[]}}',NULL,NULL);
INSERT INTO team_events VALUES(2,'1795682285468_srgpd','2026-11-26T08:38:05.657Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0002","title":"Add a unit test","description":"Add test_greet.py that checks greet()","status":"pending","createdAt":"2026-11-26T08:38:05.657Z","updatedAt":"2026-11-26T08:38:05.657Z","createdBy":"1795682285468_srgpd","dependsOn":[]}}',NULL,NULL);
INSERT INTO team_events VALUES(3,'1795682285468_srgpd','2026-11-26T08:38:05.659Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0003","title":"Update README","description":"Document greet() in README.md","status":"pending","createdAt":"2026-11-26T08:38:05.659Z","updatedAt":"2026-11-26T08:38:05.659Z","createdBy":"1795682285468_srgpd","dependsOn":[]}}',NULL,NULL);
INSERT INTO team_events VALUES(4,'1795682285468_srgpd','2026-11-26T08:38:05.692Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0001","title":"Write greet.py","description":"Create greet.py with a greet(name) function","status":"in_progress","createdAt":"2026-11-26T08:38:05.652Z","updatedAt":"2026-11-26T08:38:05.692Z","createdBy":"1795682285468_srgpd","assignee":"1795682285468_srgpd","dependsOn":[]}}',NULL,NULL);
INSERT INTO team_events VALUES(5,'1795682285468_srgpd','2026-11-26T08:38:05.693Z','team_mission_log','{"type":"team_mission_log","entry":{"id":"log_000001","ts":"2026-11-26T08:38:05.693Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0001","kind":"progress","summary":"Claimed task \"Write greet.py\""}}',NULL,NULL);
INSERT INTO team_events VALUES(6,'1795682285468_srgpd','2026-11-26T08:38:05.795Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0001","title":"Write greet.py","description":"Create greet.py with a greet(name) function","status":"completed","createdAt":"2026-11-26T08:38:05.652Z","updatedAt":"2026-11-26T08:38:05.795Z","createdBy":"1795682285468_srgpd","assignee":"1795682285468_srgpd","dependsOn":[],"summary":"greet.py created"}}',NULL,NULL);
INSERT INTO team_events VALUES(7,'1795682285468_srgpd','2026-11-26T08:38:05.796Z','team_mission_log','{"type":"team_mission_log","entry":{"id":"log_000002","ts":"2026-11-26T08:38:05.796Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0001","kind":"done","summary":"greet.py created"}}',NULL,NULL);
INSERT INTO team_events VALUES(8,'1795682285468_srgpd','2026-11-26T08:38:05.798Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0002","title":"Add a unit test","description":"Add test_greet.py that checks greet()","status":"in_progress","createdAt":"2026-11-26T08:38:05.657Z","updatedAt":"2026-11-26T08:38:05.798Z","createdBy":"1795682285468_srgpd","assignee":"1795682285468_srgpd","dependsOn":[]}}',NULL,NULL);
INSERT INTO team_events VALUES(9,'1795682285468_srgpd','2026-11-26T08:38:05.800Z','team_mission_log','{"type":"team_mission_log","entry":{"id":"log_000003","ts":"2026-11-26T08:38:05.800Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0002","kind":"progress","summary":"Claimed task \"Add a unit test\""}}',NULL,NULL);
INSERT INTO team_events VALUES(10,'1795682285468_srgpd','2026-11-26T08:38:05.899Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0002","title":"Add a unit test","description":"Add test_greet.py that checks greet()","status":"blocked","createdAt":"2026-11-26T08:38:05.657Z","updatedAt":"2026-11-26T08:38:05.899Z","createdBy":"1795682285468_srgpd","assignee":"1795682285468_srgpd","dependsOn":[],"summary":"Stopped here at the user''s request; test not written yet"}}',NULL,NULL);
INSERT INTO team_events VALUES(11,'1795682285468_srgpd','2026-11-26T08:38:05.905Z','team_mission_log','{"type":"team_mission_log","entry":{"id":"log_000004","ts":"2026-11-26T08:38:05.905Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0002","kind":"blocked","summary":"Stopped here at the user''s request; test not written yet"}}',NULL,NULL);
INSERT INTO team_events VALUES(12,'1795682285468_srgpd','2026-11-26T08:38:05.910Z','team_task_updated','{"type":"team_task_updated","task":{"id":"task_0003","title":"Update README","description":"Document greet() in README.md","status":"blocked","createdAt":"2026-11-26T08:38:05.659Z","updatedAt":"2026-11-26T08:38:05.910Z","createdBy":"1795682285468_srgpd","dependsOn":[],"summary":"Not started; README update left for the user"}}',NULL,NULL);
INSERT INTO team_events VALUES(13,'1795682285468_srgpd','2026-11-26T08:38:05.912Z','team_mission_log','{"type":"team_mission_log","entry":{"id":"log_000005","ts":"2026-11-26T08:38:05.912Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0003","kind":"blocked","summary":"Not started; README update left for the user"}}',NULL,NULL);
CREATE TABLE team_runtime_snapshot (
				team_name TEXT PRIMARY KEY,
				state_json TEXT NOT NULL,
				teammates_json TEXT NOT NULL,
				updated_at TEXT NOT NULL
			);
INSERT INTO team_runtime_snapshot VALUES('1795682285468_srgpd','{"teamId":"t_qa1z3bemkb","teamName":"team-U7u9Q","members":[{"agentId":"1795682285468_srgpd","role":"lead","status":"idle"}],"tasks":[{"id":"task_0001","title":"Write greet.py","description":"Create greet.py with a greet(name) function","status":"completed","createdAt":"2026-11-26T08:38:05.652Z","updatedAt":"2026-11-26T08:38:05.795Z","createdBy":"1795682285468_srgpd","assignee":"1795682285468_srgpd","dependsOn":[],"summary":"greet.py created"},{"id":"task_0002","title":"Add a unit test","description":"Add test_greet.py that checks greet()","status":"blocked","createdAt":"2026-11-26T08:38:05.657Z","updatedAt":"2026-11-26T08:38:05.899Z","createdBy":"1795682285468_srgpd","assignee":"1795682285468_srgpd","dependsOn":[],"summary":"Stopped here at the user''s request; test not written yet"},{"id":"task_0003","title":"Update README","description":"Document greet() in README.md","status":"blocked","createdAt":"2026-11-26T08:38:05.659Z","updatedAt":"2026-11-26T08:38:05.910Z","createdBy":"1795682285468_srgpd","dependsOn":[],"summary":"Not started; README update left for the user"}],"mailbox":[],"missionLog":[{"id":"log_000001","ts":"2026-11-26T08:38:05.693Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0001","kind":"progress","summary":"Claimed task \"Write greet.py\""},{"id":"log_000002","ts":"2026-11-26T08:38:05.796Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0001","kind":"done","summary":"greet.py created"},{"id":"log_000003","ts":"2026-11-26T08:38:05.800Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0002","kind":"progress","summary":"Claimed task \"Add a unit test\""},{"id":"log_000004","ts":"2026-11-26T08:38:05.905Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0002","kind":"blocked","summary":"Stopped here at the user''s request; test not written yet"},{"id":"log_000005","ts":"2026-11-26T08:38:05.912Z","teamId":"t_qa1z3bemkb","agentId":"1795682285468_srgpd","taskId":"task_0003","kind":"blocked","summary":"Not started; README update left for the user"}],"runs":[],"outcomes":[],"outcomeFragments":[]}','[]','2026-11-26T08:38:05.912Z');
CREATE TABLE team_tasks (
				team_name TEXT NOT NULL,
				task_id TEXT NOT NULL,
				title TEXT NOT NULL,
				description TEXT NOT NULL,
				status TEXT NOT NULL,
				assignee TEXT,
				depends_on_json TEXT NOT NULL,
				summary TEXT,
				version INTEGER NOT NULL DEFAULT 1,
				updated_at TEXT NOT NULL,
				PRIMARY KEY(team_name, task_id)
			);
INSERT INTO team_tasks VALUES('1795682285468_srgpd','task_0001','Write greet.py','Create greet.py with a greet(name) function','completed','1795682285468_srgpd','[]','greet.py created',13,'2026-11-26T08:38:05.795Z');
INSERT INTO team_tasks VALUES('1795682285468_srgpd','task_0002','Add a unit test','Add test_greet.py that checks greet()','blocked','1795682285468_srgpd','[]','Stopped here at the user''s request; test not written yet',12,'2026-11-26T08:38:05.899Z');
INSERT INTO team_tasks VALUES('1795682285468_srgpd','task_0003','Update README','Document greet() in README.md','blocked',NULL,'[]','Not started; README update left for the user',11,'2026-11-26T08:38:05.910Z');
CREATE TABLE team_runs (
				team_name TEXT NOT NULL,
				run_id TEXT NOT NULL,
				agent_id TEXT NOT NULL,
				task_id TEXT,
				status TEXT NOT NULL,
				message TEXT NOT NULL,
				started_at TEXT,
				ended_at TEXT,
				error TEXT,
				lease_owner TEXT,
				heartbeat_at TEXT,
				version INTEGER NOT NULL DEFAULT 1,
				PRIMARY KEY(team_name, run_id)
			);
CREATE TABLE team_outcomes (
				team_name TEXT NOT NULL,
				outcome_id TEXT NOT NULL,
				title TEXT NOT NULL,
				status TEXT NOT NULL,
				schema_json TEXT NOT NULL,
				finalized_at TEXT,
				version INTEGER NOT NULL DEFAULT 1,
				PRIMARY KEY(team_name, outcome_id)
			);
CREATE TABLE team_outcome_fragments (
				team_name TEXT NOT NULL,
				outcome_id TEXT NOT NULL,
				fragment_id TEXT NOT NULL,
				section TEXT NOT NULL,
				source_agent_id TEXT NOT NULL,
				source_run_id TEXT,
				content TEXT NOT NULL,
				status TEXT NOT NULL,
				reviewed_by TEXT,
				reviewed_at TEXT,
				version INTEGER NOT NULL DEFAULT 1,
				PRIMARY KEY(team_name, fragment_id)
			);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('team_events',13);
CREATE INDEX idx_team_events_name_ts
				ON team_events(team_name, ts DESC);
CREATE INDEX idx_team_runs_status
				ON team_runs(team_name, status);
COMMIT;
