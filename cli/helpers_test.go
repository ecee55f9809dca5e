package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
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

// memStore is a tally.Store in memory, with the contract's filter and
// prefix rules.
type memStore struct {
	mu      sync.Mutex
	files   map[string]*tally.FileState
	records map[string]tally.Record
}

func newMemStore() *memStore {
	return &memStore{files: map[string]*tally.FileState{}, records: map[string]tally.Record{}}
}

func (m *memStore) Files(context.Context) ([]*tally.FileState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*tally.FileState, 0, len(m.files))
	for _, f := range m.files {
		out = append(out, f)
	}
	return out, nil
}

func (m *memStore) Commit(_ context.Context, b tally.Batch) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range b.Files {
		m.files[f.Path] = f
	}
	for _, r := range b.Sessions {
		m.records[r.ID] = r
	}
	for _, p := range b.RemovedFiles {
		delete(m.files, p)
	}
	for _, id := range b.RemovedSessions {
		delete(m.records, id)
	}
	return nil
}

func (m *memStore) Sessions(_ context.Context, f tally.SessionFilter) ([]tally.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []tally.Record
	for _, r := range m.records {
		if (f.Agent != "" && r.Agent != f.Agent) || !strings.Contains(r.Project, f.Project) ||
			(!f.Since.IsZero() && r.LastActivity.Before(f.Since)) {
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastActivity.After(out[j].LastActivity) })
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

func (m *memStore) Session(_ context.Context, id string) (tally.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var found []tally.Record
	for k, r := range m.records {
		if k == id {
			return r, nil
		}
		if strings.HasPrefix(k, id) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, "memStore.Session", "no session %q", id)
	case 1:
		return found[0], nil
	}
	return tally.Record{}, tally.Errorf(tally.CodeConflict, "memStore.Session", "%q matches %d sessions", id, len(found))
}

func (m *memStore) Close() error { return nil }

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
		OpenStore: func(context.Context, string) (tally.Store, error) { return st, nil },
		DefaultDB: func() (string, error) { return "mem", nil },
	}
}
