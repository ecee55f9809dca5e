package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/store/sqlite"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestOpenStore: a postgres:// or postgresql:// URL opens the PostgreSQL
// store; anything else, even a path with "postgres" in it, is a SQLite
// file.
func TestOpenStore(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	for _, tc := range []struct {
		db     string
		postgr bool
	}{
		{url, true},
		{"postgresql://" + strings.TrimPrefix(url, "postgres://"), true},
		{filepath.Join(t.TempDir(), "tally.db"), false},
		{filepath.Join(t.TempDir(), "postgres:", "tally.db"), false},
	} {
		st, err := openStore(ctx, tc.db)
		if err != nil {
			t.Fatalf("openStore(%s): %v", tc.db, err)
		}
		switch st.(type) {
		case *postgres.Store:
			if !tc.postgr {
				t.Errorf("openStore(%s) opened PostgreSQL", tc.db)
			}
		case *sqlite.Store:
			if tc.postgr {
				t.Errorf("openStore(%s) opened a SQLite file", tc.db)
			}
		default:
			t.Errorf("openStore(%s) = %T", tc.db, st)
		}
		st.Close()
	}
	if st, err := openStore(ctx, "postgres://nobody@127.0.0.1:1/x?connect_timeout=1"); err == nil || st != nil {
		t.Errorf("openStore of an unreachable server = %v, %v; want a nil store and an error", st, err)
	}
}
