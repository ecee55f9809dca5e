-- Built to the OpenCode section of docs/formats.md (no real OpenCode
-- capture exists, see PROVENANCE.md). Tables and columns: packages/opencode/src/session/
-- session.sql.ts and src/storage/schema.sql.ts at anomalyco/opencode
-- @063e830, as drizzle creates them (project is cut to the columns a
-- session needs). Times are Date.now() milliseconds.
CREATE TABLE `project` (
	`id` text PRIMARY KEY,
	`worktree` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL
);
CREATE TABLE `session` (
	`id` text PRIMARY KEY,
	`project_id` text NOT NULL,
	`workspace_id` text,
	`parent_id` text,
	`slug` text NOT NULL,
	`directory` text NOT NULL,
	`path` text,
	`title` text NOT NULL,
	`version` text NOT NULL,
	`share_url` text,
	`summary_additions` integer,
	`summary_deletions` integer,
	`summary_files` integer,
	`summary_diffs` text,
	`cost` real DEFAULT 0 NOT NULL,
	`tokens_input` integer DEFAULT 0 NOT NULL,
	`tokens_output` integer DEFAULT 0 NOT NULL,
	`tokens_reasoning` integer DEFAULT 0 NOT NULL,
	`tokens_cache_read` integer DEFAULT 0 NOT NULL,
	`tokens_cache_write` integer DEFAULT 0 NOT NULL,
	`revert` text,
	`permission` text,
	`goal` text,
	`agent` text,
	`model` text,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`time_compacting` integer,
	`time_archived` integer,
	CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE INDEX `session_project_idx` ON `session` (`project_id`);
CREATE INDEX `session_workspace_idx` ON `session` (`workspace_id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
CREATE TABLE `message` (
	`id` text PRIMARY KEY,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);
CREATE TABLE `part` (
	`id` text PRIMARY KEY,
	`message_id` text NOT NULL,
	`session_id` text NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	`data` text NOT NULL,
	CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
);
CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
CREATE TABLE `todo` (
	`session_id` text NOT NULL,
	`content` text NOT NULL,
	`status` text NOT NULL,
	`priority` text NOT NULL,
	`position` integer NOT NULL,
	`time_created` integer NOT NULL,
	`time_updated` integer NOT NULL,
	CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`),
	CONSTRAINT `fk_todo_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE INDEX `todo_session_idx` ON `todo` (`session_id`);

INSERT INTO project VALUES ('prj_app', '/home/dev/app', 1767600000000, 1767600000000);

-- A: every documented status, one word OpenCode does not document, and a
-- sub-agent session with a list of its own.
INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES
  ('ses_4a1b', 'prj_app', NULL, 'dark-mode', '/home/dev/app', 'Add dark mode', '1.2.3', 1767607200000, 1767607500000),
  ('ses_4a1c', 'prj_app', 'ses_4a1b', 'explore', '/home/dev/app', 'Find theme code (@explore subagent)', '1.2.3', 1767607300000, 1767607400000);
-- C: archived, no list.
INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated, time_archived) VALUES
  ('ses_4c00', 'prj_app', 'old', '/home/dev/app', 'Old chat', '1.2.3', 1767500000000, 1767500100000, 1767500200000);

-- Inserted out of position order: the list is read in position order.
INSERT INTO todo VALUES
  ('ses_4a1b', 'Ship it', 'pending', 'low', 4, 1767607210000, 1767607210000),
  ('ses_4a1b', 'Add a theme toggle', 'completed', 'high', 0, 1767607210000, 1767607450000),
  ('ses_4a1b', 'Persist the choice', 'in_progress', 'medium', 1, 1767607210000, 1767607450000),
  ('ses_4a1b', 'Dark mode for charts', 'cancelled', 'low', 2, 1767607210000, 1767607450000),
  ('ses_4a1b', 'Ask design about contrast', 'waiting', 'medium', 3, 1767607210000, 1767607450000),
  ('ses_4a1c', 'Grep for theme variables', 'completed', 'high', 0, 1767607310000, 1767607390000);

INSERT INTO message VALUES
  ('msg_1', 'ses_4a1b', 1767607200100, 1767607200100, '{"role":"user","time":{"created":1767607200100},"agent":"build"}'),
  ('msg_2', 'ses_4a1b', 1767607200200, 1767607490000, '{"role":"assistant","time":{"created":1767607200200,"completed":1767607490000},"finish":"stop"}'),
  ('msg_3', 'ses_4c00', 1767500000100, 1767500000100, 'not json');
