-- 005: requests agents' hooks ask of their users that Tally lets be
-- answered from elsewhere (a permission, a plan approval): one row per
-- request, by its one-time id, the request and its decision as JSON
-- (tally.Request). The session's newest ones are copied into its record.
CREATE TABLE requests (
	id       text PRIMARY KEY,
	session  text NOT NULL,
	asked_at bigint NOT NULL,
	request  text NOT NULL
);

CREATE INDEX requests_session ON requests (session, asked_at);
CREATE INDEX requests_asked ON requests (asked_at);
