package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/sqlite"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// fixedNow is the clock of every test: an hour after the captures were
// made (captured/README.md: the capture machine read 2026-11-22).
var fixedNow = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

// testStore is the real SQLite store in a temporary directory. Commands
// close the store they open; the test's store stays open across commands
// and is closed when the test ends.
type testStore struct{ *sqlite.Store }

func (testStore) Close() error { return nil }

func newStore(t *testing.T) testStore {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return testStore{st}
}

// syncBuffer is a bytes.Buffer a command writes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testEnv is a pipe-like Env (no terminal) over st with a fixed clock.
func testEnv(st tally.Store, out, errOut *syncBuffer, env map[string]string) Env {
	return Env{
		Out: out, Err: errOut,
		Getenv:    func(k string) string { return env[k] },
		Now:       func() time.Time { return fixedNow },
		Home:      "/home/dev",
		Dir:       "/home/dev/src/tally",
		OpenStore: func(context.Context, string) (tally.Store, error) { return st, nil },
		DefaultDB: func() (string, error) { return "mem", nil },
	}
}
