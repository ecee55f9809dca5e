package main

import (
	"context"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/sqlite"
)

// openSQLite opens the embedded store. It returns a nil interface on error,
// not a nil *sqlite.Store inside a non-nil one.
func openSQLite(ctx context.Context, path string) (tally.Store, error) {
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return s, nil
}
