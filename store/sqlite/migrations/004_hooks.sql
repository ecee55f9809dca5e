-- 004: what agents' hooks (tally hook) keep per session.
--
-- hook_state holds the hook rules' small memory as JSON (stop-guard block
-- times, turn counts), one row per session, read and written in one
-- IMMEDIATE transaction per hook call, so the separate processes of one
-- session's hooks agree.
CREATE TABLE hook_state (
	session    TEXT PRIMARY KEY NOT NULL,
	state      TEXT NOT NULL,
	updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Rows of sessions long over are pruned by age.
CREATE INDEX hook_state_updated ON hook_state (updated_at);

-- needs_input marks a session that waits for its user from `at` on (a
-- permission prompt, an idle prompt). While a mark stands, the session's
-- record says so (signal "waiting" at `at`); a record committed with
-- activity after `at` ends the mark, so the next thing the session does
-- clears it without anyone deleting it.
CREATE TABLE needs_input (
	session TEXT PRIMARY KEY NOT NULL,
	at      INTEGER NOT NULL
) WITHOUT ROWID;
