-- 005: a task list's tasks are rows, so that a tool call writes the tasks
-- it changed, not the whole list, and its cost does not grow with the
-- list. task_lists.list keeps the rest of the list (a tasks.List without
-- its tasks) with "order", the ids of the live tasks in order, and
-- "deletedCount"; rev is new at every write, so a process that kept the
-- list of its last call knows whether it is still the one committed.
CREATE TABLE task_items (
	list    TEXT NOT NULL,
	-- 0 for a live task, n for the n-th task deleted in this round.
	deleted INTEGER NOT NULL,
	id      TEXT NOT NULL,
	task    TEXT NOT NULL, -- tasks.Task as JSON
	PRIMARY KEY (list, deleted, id)
);

ALTER TABLE task_lists ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;

-- The lists written whole so far become rows. A row that is not valid
-- JSON is left as it is: reading it still says it is damaged.
INSERT OR IGNORE INTO task_items (list, deleted, id, task)
SELECT l.name, 0, coalesce(json_extract(t.value, '$.id'), ''), t.value
FROM task_lists l, json_each(CASE WHEN json_valid(l.list) THEN l.list ELSE '{}' END, '$.tasks') t
WHERE t.type = 'object';

INSERT OR IGNORE INTO task_items (list, deleted, id, task)
SELECT l.name, t.key + 1, coalesce(json_extract(t.value, '$.id'), ''), t.value
FROM task_lists l, json_each(CASE WHEN json_valid(l.list) THEN l.list ELSE '{}' END, '$.deleted') t
WHERE t.type = 'object';

UPDATE task_lists SET list = json_set(json_remove(list, '$.tasks', '$.deleted'),
	'$.order', json((SELECT json_group_array(coalesce(json_extract(t.value, '$.id'), '') ORDER BY t.key)
		FROM json_each(task_lists.list, '$.tasks') t WHERE t.type = 'object')),
	'$.deletedCount', (SELECT count(*) FROM json_each(task_lists.list, '$.deleted') t WHERE t.type = 'object'))
WHERE json_valid(list);

-- A list's session record no longer holds its tasks: session_records
-- completes it from task_items.
UPDATE sessions SET record = json_remove(record, '$.lists')
WHERE agent = 'tally' AND substr(id, 1, 6) = 'tally:' AND json_valid(record);

-- session_records is sessions as readers see them: the record of a task
-- list (session tally:NAME with a row in task_lists) gets the list's live
-- tasks from task_items, in order, in the same snapshot. Every other
-- record is as stored.
CREATE VIEW session_records AS
SELECT s.id, s.agent, s.project, s.title, s.started_at, s.last_activity, s.seq,
	CASE WHEN s.agent = 'tally' AND substr(s.id, 1, 6) = 'tally:'
		AND EXISTS (SELECT 1 FROM task_lists l WHERE l.name = substr(s.id, 7))
	THEN json_set(s.record, '$.lists', json_object('', json((
		-- CROSS JOIN keeps this order: each id of the order finds its
		-- row by the primary key.
		SELECT json_group_array(json(i.task) ORDER BY o.key)
		FROM task_lists l
		CROSS JOIN json_each(CASE WHEN json_valid(l.list) THEN l.list ELSE '{}' END, '$.order') o
		CROSS JOIN task_items i
		WHERE l.name = substr(s.id, 7)
			AND i.list = l.name AND i.deleted = 0 AND i.id = o.value AND json_valid(i.task)))))
	ELSE s.record END AS record
FROM sessions s;
