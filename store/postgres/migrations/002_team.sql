-- 002: what a team's server keeps besides the records: where pushed
-- records came from (filtered on), each pusher's stream of change marks,
-- access tokens, and what agents' hooks remember.

-- Listing one machine's or one user's sessions, newest first, walks one of
-- these backwards. Records this server wrote itself have no origin and are
-- in neither.
CREATE INDEX sessions_machine ON sessions (origin_machine, last_activity, id) WHERE origin_machine IS NOT NULL;
CREATE INDEX sessions_user ON sessions (origin_user, last_activity, id) WHERE origin_user IS NOT NULL;

-- push_streams: how far each pusher's stream has been applied. A stream is
-- one pusher's local store (its change marks only grow within it); mark is
-- the newest of its marks whose records are all here. A batch is applied
-- in the transaction that moves the mark, holding the row's lock, so a
-- batch sent twice is applied once.
CREATE TABLE push_streams (
	machine    text COLLATE "C" NOT NULL,
	stream     text COLLATE "C" NOT NULL,
	mark       bigint NOT NULL,
	user_name  text NOT NULL,
	lines      bigint NOT NULL DEFAULT 0,
	updated_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (machine, stream)
);

-- tokens: access tokens, by their public id; hash is the SHA-256 of the
-- secret, which is never stored.
CREATE TABLE tokens (
	id         text COLLATE "C" PRIMARY KEY,
	name       text NOT NULL,
	scope      text NOT NULL,
	hash       bytea NOT NULL,
	created_at bigint NOT NULL
);

-- hook_state: the hook rules' small memory, one row per session, read and
-- written by one transaction per hook call that holds the row's lock, so
-- the hook processes of a session take turns. Rows of sessions long over
-- are pruned by age.
CREATE TABLE hook_state (
	session    text COLLATE "C" PRIMARY KEY,
	state      bytea,
	updated_at bigint NOT NULL
);
CREATE INDEX hook_state_updated ON hook_state (updated_at);

-- needs_input: a session waiting for its user from `at` on (nanoseconds).
-- While a mark stands, the session's record says so; a record written
-- with activity after `at` ends it.
CREATE TABLE needs_input (
	session text COLLATE "C" PRIMARY KEY,
	at      bigint NOT NULL
);
