package pgtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestDB: each test gets its own empty database on a real server, which
// keeps what is written to it and is gone after the test.
func TestDB(t *testing.T) {
	ctx := context.Background()
	var first string
	t.Run("write", func(t *testing.T) {
		first = DB(t)
		conn, err := pgx.Connect(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('x')"); err != nil {
			t.Fatal(err)
		}
		var v, version string
		if err := conn.QueryRow(ctx, "SELECT v, current_setting('server_version') FROM kept").Scan(&v, &version); err != nil || v != "x" {
			t.Fatalf("read back %q, %v", v, err)
		}
		t.Logf("PostgreSQL %s at %s", version, first)
	})
	t.Run("another database", func(t *testing.T) {
		url := DB(t)
		if url == first {
			t.Fatalf("two tests were given the same database %s", url)
		}
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'kept'").Scan(&n); err != nil || n != 0 {
			t.Fatalf("the new database holds the other test's table (%d, %v)", n, err)
		}
	})
	if first == "" {
		return
	}
	if _, err := pgx.Connect(ctx, first); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("the first test's database is still there after it ended: %v", err)
	}
}

func TestRequired(t *testing.T) {
	for _, tc := range []struct {
		ci, req string
		want    bool
	}{
		{"", "", false},
		{"true", "", true},
		{"1", "", true},
		{"false", "", false},
		{"", "1", true},
		{"", "0", false},
	} {
		t.Setenv("CI", tc.ci)
		t.Setenv("TALLY_REQUIRE_PG", tc.req)
		if got := Required(); got != tc.want {
			t.Errorf("CI=%q TALLY_REQUIRE_PG=%q: Required() = %v, want %v", tc.ci, tc.req, got, tc.want)
		}
	}
}

// TestShared_WithoutPostgreSQL runs a test that needs PostgreSQL in a
// child process that cannot find it: it is skipped with the way to
// install it, except under CI, where it fails saying so.
func TestShared_WithoutPostgreSQL(t *testing.T) {
	if os.Getenv("PGTEST_CHILD") == "1" {
		DB(t)
		t.Log("reached past DB")
		return
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		name, ci string
		fail     bool
		say      string
	}{
		{"skipped on a developer's machine", "", false, "--- SKIP"},
		{"failed under CI", "true", true, "this run requires PostgreSQL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestShared_WithoutPostgreSQL$", "-test.v")
			cmd.Env = append(os.Environ(), "PGTEST_CHILD=1", "TALLY_PG_BIN="+empty, "CI="+tc.ci, "TALLY_REQUIRE_PG=")
			out, err := cmd.CombinedOutput()
			if (err != nil) != tc.fail {
				t.Errorf("child exit: %v, want failure %v\n%s", err, tc.fail, out)
			}
			for _, want := range []string{tc.say, "scripts/deps-postgres"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("child output does not say %q:\n%s", want, out)
				}
			}
			if strings.Contains(string(out), "reached past DB") {
				t.Errorf("the test went on without a database:\n%s", out)
			}
		})
	}
}
