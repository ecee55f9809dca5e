-- 001: the first schema.
--
-- Keys (paths, session ids, list names) collate "C": ordering and the id
-- prefix ranges compare bytes, whatever the database's own collation.
-- Instants that filter and sort sessions are bigint nanoseconds since the
-- Unix epoch, clamped to the int64 range, so comparisons are exact to the
-- nanosecond; the JSON beside them keeps the full values. Times the
-- server stamps itself (updated_at, archived_at) are timestamptz from the
-- database's clock, which all replicas share.

-- files: one row per log file this store's indexer reads, its full
-- tally.FileState as JSON. session, agent and offset duplicate fields of
-- state for inspection with psql; they are written together with it.
CREATE TABLE files (
	path       text COLLATE "C" PRIMARY KEY,
	session    text NOT NULL,
	agent      text NOT NULL,
	"offset"   bigint NOT NULL,
	state      json NOT NULL,
	updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX files_session ON files (session);

-- sessions: one row per session, its tally.Record as JSON; agent, project,
-- title and the times are what listing filters and sorts on.
--
-- seq is the row's change mark: every write of a record gives it the next
-- mark from change_marks, so "what changed since mark N" is a range scan
-- of sessions_seq, and a reader that saw mark N has seen every commit
-- that took a lower one (commits that write records are serialised on
-- the change_marks row, see there).
--
-- origin_machine and origin_user are the machine and the user a record
-- came from. They are NULL for records committed by the server's own
-- indexer and by task tool calls; records that developers' machines push
-- to a team server fill them.
CREATE TABLE sessions (
	id             text COLLATE "C" PRIMARY KEY,
	agent          text NOT NULL,
	project        text NOT NULL,
	title          text NOT NULL,
	started_at     bigint NOT NULL,
	last_activity  bigint NOT NULL,
	record         json NOT NULL,
	seq            bigint NOT NULL,
	origin_machine text,
	origin_user    text,
	updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Listing is newest first and stops at the limit: walking this index
-- backwards reads only the rows returned. The project filter is a
-- substring match, which no b-tree serves; it is applied on the way.
CREATE INDEX sessions_last_activity ON sessions (last_activity, id);
CREATE INDEX sessions_agent ON sessions (agent, last_activity, id);
CREATE UNIQUE INDEX sessions_seq ON sessions (seq);

-- change_marks: one row, the newest change mark. Every transaction that
-- writes (an indexer's commit, a task tool call) first adds the number of
-- records it writes, perhaps 0; the row lock that UPDATE takes is held
-- until the transaction ends, so writers commit one after another in the
-- order of their marks. That order is what lets a reader trust that no
-- lower mark can still appear after it read a higher one; it also means
-- writers never wait on each other's rows in an order that deadlocks.
CREATE TABLE change_marks (
	only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
	mark     bigint NOT NULL
);
INSERT INTO change_marks (mark) VALUES (0);

-- task_lists: the lists the task tools keep (tasks.List as JSON), one row
-- each, rewritten whole by one transaction per tool call that holds the
-- row's lock (SELECT … FOR UPDATE) from its read to its commit: calls
-- through every replica on one list are serialised. The list's record is
-- written to sessions in the same transaction, which is how every surface
-- shows it. list is NULL only inside the transaction that creates the
-- row; that transaction writes the list or rolls back, so no committed
-- row holds NULL.
CREATE TABLE task_lists (
	name       text COLLATE "C" PRIMARY KEY,
	list       json,
	updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- task_archive: a list's finished rounds. When every task was done and a
-- new task started the list again from id 1, the finished round lands
-- here under its generation number.
CREATE TABLE task_archive (
	name        text COLLATE "C" NOT NULL,
	generation  integer NOT NULL,
	list        json NOT NULL,
	archived_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (name, generation)
);
