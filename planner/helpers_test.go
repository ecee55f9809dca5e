package planner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/sqlite"
)

// capture is a real Claude Code session that planned into docs/por and
// wrote six progress markers in its replies.
const capture = "../plan/testdata/claude-code-2.1.330-plan-markers"

const sid = "68c26bdc-7510-48dd-82af-1c0fcfd325ad"

// project copies the capture's work folder (its plan as the agent wrote
// it) and returns the copy's path.
func project(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join(capture, "work")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// found reads the capture's log as the indexer does and returns its
// markers as the indexer hands them over, for the project at dir.
func found(t *testing.T, dir string) []tally.FoundMarker {
	t.Helper()
	logs, _ := filepath.Glob(capture + "/config/projects/*/*.jsonl")
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	st := adaptertest.Fold(t, claude.New(claude.Options{ConfigDir: "/nonexistent"}), tally.FileInfo{Path: logs[0], Session: sid}, data, 0)
	var out []tally.FoundMarker
	for _, m := range st.Markers {
		out = append(out, tally.FoundMarker{Key: tally.MarkerKey(sid, "", m.Offset, m.Index), Session: sid, Project: dir, Marker: m})
	}
	if len(out) != 6 {
		t.Fatalf("%d markers in the capture", len(out))
	}
	return out
}

func openStore(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// commit stores markers as the indexer's commit does: pending.
func commit(t *testing.T, st store.Store, ms []tally.FoundMarker) {
	t.Helper()
	if err := st.Commit(context.Background(), tally.Batch{Markers: ms}); err != nil {
		t.Fatal(err)
	}
}

var now = time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)

// recorder keeps what a planner reports.
type recorder struct {
	mu     sync.Mutex
	events []planner.Event
	diags  []tally.Diagnostic
}

func (r *recorder) event(e planner.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) diag(d tally.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = append(r.diags, d)
}

func (r *recorder) eventTexts() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Kind.String()+" "+e.Text)
	}
	return strings.Join(out, "\n")
}

func newPlanner(st store.Store, r *recorder) *planner.Planner {
	return planner.New(planner.Options{
		Folder: func(p string) plan.Folder { return plan.Folder{Root: p, Dir: filepath.Join(p, "docs", "por")} },
		Store:  st, Now: func() time.Time { return now },
		OnEvent: r.event, OnDiagnostic: r.diag, Poll: time.Hour,
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func states(t *testing.T, st tally.MarkerStore) map[string]tally.MarkerVerdict {
	t.Helper()
	ms, err := st.SessionMarkers(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]tally.MarkerVerdict{}
	for _, m := range ms {
		out[m.Key] = m.Result.Verdict
	}
	return out
}
