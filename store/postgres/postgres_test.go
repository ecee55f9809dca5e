package postgres

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestStore(t *testing.T) {
	fresh := func(t *testing.T) tally.Store { return openTemp(t, pgtest.DB(t)) }
	storetest.Run(t, fresh)
	storetest.RunTasks(t, fresh)
	storetest.RunShared(t, func(t *testing.T) storetest.Opener {
		url := pgtest.DB(t)
		return func(t *testing.T) tally.Store { return openTemp(t, url) }
	})
}

func openTemp(t testing.TB, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open(%s): %v", url, err)
	}
	return s
}

// rawDB connects behind the store's back, as psql or another program would.
func rawDB(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
