-- One row per migration applied, written in the migration's transaction.
CREATE TABLE IF NOT EXISTS tally_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
);
