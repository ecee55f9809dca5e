package agentdbtest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Fixture is how one adapter's database is laid out and read.
type Fixture struct {
	Agent tally.Agent
	// Rel is where the database sits under the adapter's root:
	// "state.db", ".crush/crush.db".
	Rel string
	// New builds the adapter reading root.
	New func(root string) tally.DatabaseReader
}

// Build creates the database under a new root from testdata/<script>, in
// WAL mode as the agents keep theirs, and returns its path and an open
// writer connection, closed when the test ends.
func (f Fixture) Build(t testing.TB, script string) (string, *sql.DB) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), f.Rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	t.Cleanup(func() { w.Close() })
	if _, err := w.Exec(string(src)); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return path, w
}

// Read reads the database at path, which Build made, through the adapter
// as the indexer does (Match, then ReadDatabase), failing the test on an
// error.
func (f Fixture) Read(t testing.TB, path string) (map[string][]tally.Event, []tally.Diagnostic) {
	t.Helper()
	root := strings.TrimSuffix(path, string(filepath.Separator)+f.Rel)
	a := f.New(root)
	fi, ok := a.Match(root, path)
	if !ok || fi.Layout != tally.LayoutDatabase {
		t.Fatalf("Match(%s) = %+v, %v; want a database", path, fi, ok)
	}
	got, diags, err := a.ReadDatabase(context.Background(), fi.Path)
	if err != nil {
		t.Fatalf("ReadDatabase: %v", err)
	}
	return got, diags
}

// Sessions is Read of a sound database: a diagnostic fails the test.
func (f Fixture) Sessions(t testing.TB, path string) map[string][]tally.Event {
	t.Helper()
	got, diags := f.Read(t, path)
	if len(diags) > 0 {
		t.Fatalf("diagnostics for a sound database: %v", diags)
	}
	return got
}

// Fold applies one session's events the way the indexer does.
func (f Fixture) Fold(id string, evs []tally.Event) *tally.FileState {
	st := &tally.FileState{Session: id, Agent: f.Agent}
	for _, ev := range evs {
		st.Apply(ev)
	}
	return st
}

// List is the items of one list of a folded session ("" is the main
// list), nil when it has none.
func List(st *tally.FileState, name string) []tally.Item {
	if l := st.Lists[name]; l != nil {
		return l.Items()
	}
	return nil
}

// Invalid checks that the adapter refuses, as tally.CodeInvalid, a file
// that is no database, and the database script builds once damage (SQL
// dropping or renaming a table it needs) has made it another program's.
func (f Fixture) Invalid(t *testing.T, script, damage string) {
	t.Helper()
	junk := filepath.Join(t.TempDir(), f.Rel)
	if err := os.MkdirAll(filepath.Dir(junk), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(junk, []byte("not SQLite, only text long enough to be taken for a header ......"), 0o644); err != nil {
		t.Fatal(err)
	}
	path, w := f.Build(t, script)
	if _, err := w.Exec(damage); err != nil {
		t.Fatal(err)
	}
	for what, p := range map[string]string{"a file that is no database": junk, damage: path} {
		if _, _, err := f.New(filepath.Dir(p)).ReadDatabase(context.Background(), p); tally.ErrorCode(err) != tally.CodeInvalid {
			t.Errorf("%s: err = %v, want invalid", what, err)
		}
	}
}
