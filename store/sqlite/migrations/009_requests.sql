-- 009: requests agents' hooks ask of their users that Tally lets be
-- answered from elsewhere (a permission, a plan approval): one row per
-- request, by its one-time id, the request and its decision as JSON
-- (tally.Request). The session's newest ones are copied into its record.
CREATE TABLE requests (
	id       TEXT PRIMARY KEY NOT NULL,
	session  TEXT NOT NULL,
	asked_at INTEGER NOT NULL,
	request  TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX requests_session ON requests (session, asked_at);
CREATE INDEX requests_asked ON requests (asked_at);
