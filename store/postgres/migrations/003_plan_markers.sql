-- 003: the progress markers the indexers read, from the commit that saved
-- their lines' offsets until they are applied to their plans, and what
-- became of each. A key is recorded once (ON CONFLICT DO NOTHING), so a
-- line read again, by this replica or another, gives no second marker;
-- and a result, once settled, is not replaced: settling updates only a
-- row still pending, and of two replicas settling one key at once the
-- second waits for the first's row lock, then finds it settled.
CREATE TABLE plan_markers (
	key        text COLLATE "C" PRIMARY KEY,
	session    text COLLATE "C" NOT NULL,
	project    text NOT NULL,
	-- when the marker's line was written, in nanoseconds clamped to the
	-- bigint range (the zero time is the lowest); the JSON keeps it exactly
	at         bigint NOT NULL,
	-- the tally.Marker
	marker     json NOT NULL,
	-- a tally.MarkerVerdict word: 'pending' until settled
	verdict    text NOT NULL DEFAULT 'pending',
	reason     text NOT NULL DEFAULT '',
	plan       text NOT NULL DEFAULT '',
	-- when it was settled, in nanoseconds; NULL while pending, or when the
	-- result did not say
	settled_at bigint,
	found_at   timestamptz NOT NULL DEFAULT now()
);

-- The appliers read what is pending, oldest first.
CREATE INDEX plan_markers_pending ON plan_markers (at, key) WHERE verdict = 'pending';
-- tally show lists a session's markers.
CREATE INDEX plan_markers_session ON plan_markers (session, at, key);
