package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// shared is the server of this test binary, started by the first DB call.
var shared struct {
	inMain atomic.Bool
	once   sync.Once
	srv    *Server
	err    error
	n      atomic.Int64
}

// Main runs the tests of a package and then stops the server they
// shared, if any started. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	shared.inMain.Store(true)
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// Required reports whether a missing PostgreSQL fails tests rather than
// skipping them: under CI, or with TALLY_REQUIRE_PG=1.
func Required() bool {
	set := func(k string) bool {
		v := os.Getenv(k)
		b, err := strconv.ParseBool(v)
		return v != "" && (err != nil || b)
	}
	return set("CI") || set("TALLY_REQUIRE_PG")
}

// Shared returns the package's server, starting it on first use. Without
// PostgreSQL the test is skipped, or failed when Required.
func Shared(t testing.TB) *Server {
	t.Helper()
	if !shared.inMain.Load() {
		t.Fatal("pgtest: the package's TestMain must call pgtest.Main, which stops the server at the end")
	}
	shared.once.Do(func() {
		shared.srv, shared.err = Start(context.Background(), Options{})
	})
	switch {
	case errors.Is(shared.err, ErrNotInstalled) && !Required():
		t.Skipf("skipped: %v", shared.err)
	case errors.Is(shared.err, ErrNotInstalled):
		t.Fatalf("%v (this run requires PostgreSQL: CI or TALLY_REQUIRE_PG is set)", shared.err)
	case shared.err != nil:
		t.Fatal(shared.err)
	}
	return shared.srv
}

// DB creates an empty database on the package's server for this test and
// returns its URL; the database is dropped when the test ends, with any
// connection still open to it.
func DB(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	name := "tally_test_" + strconv.FormatInt(shared.n.Add(1), 10)
	url, err := s.CreateDB(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.DropDB(context.Background(), name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return url
}

// CreateDB creates database name and returns its URL.
func (s *Server) CreateDB(ctx context.Context, name string) (string, error) {
	if err := s.admin(ctx, "CREATE DATABASE "+quoteIdent(name)); err != nil {
		return "", fmt.Errorf("pgtest: creating database %s: %w", name, err)
	}
	return s.URL(name), nil
}

// DropDB drops database name, ending the connections still open to it.
func (s *Server) DropDB(ctx context.Context, name string) error {
	if err := s.admin(ctx, "DROP DATABASE IF EXISTS "+quoteIdent(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	return nil
}

// admin runs one statement on the maintenance database.
func (s *Server) admin(ctx context.Context, sql string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
