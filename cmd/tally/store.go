package main

import (
	"context"

	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/sqlite"
)

// openStore opens the store --db (or TALLY_DB) names: a postgres:// or
// postgresql:// URL is a team's PostgreSQL database, anything else the
// path of an embedded SQLite file. It returns a nil interface on error,
// not a nil store inside a non-nil one.
func openStore(ctx context.Context, db string) (store.Store, error) {
	if postgres.IsURL(db) {
		s, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	s, err := sqlite.Open(ctx, db)
	if err != nil {
		return nil, err
	}
	return s, nil
}
