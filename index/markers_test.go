package index_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// planCapture is a real Claude Code session that planned into docs/por
// and wrote six progress markers in its replies.
const planCapture = "../plan/testdata/claude-code-2.1.330-plan-markers"

// sink records what the indexer hands over, round by round.
type sink struct {
	mu     sync.Mutex
	rounds [][]tally.FoundMarker
}

func (s *sink) Committed(ms []tally.FoundMarker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rounds = append(s.rounds, slices.Clone(ms))
}

func (s *sink) take() [][]tally.FoundMarker {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rounds
	s.rounds = nil
	return r
}

// planLog copies the capture's session log into a Claude home and returns
// its path, its session id and its lines.
func planLog(t *testing.T, home string) (path, sid string, lines [][]byte) {
	t.Helper()
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	if len(logs) != 1 {
		t.Fatalf("capture: %v", logs)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, "projects", filepath.Base(filepath.Dir(logs[0])))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, filepath.Base(logs[0]))
	return path, strings.TrimSuffix(filepath.Base(path), ".jsonl"), bytes.SplitAfter(data, []byte("\n"))
}

func markerTexts(ms []tally.FoundMarker) []string {
	var out []string
	for _, m := range ms {
		s := m.Marker.Task
		if m.Marker.Step != "" {
			s += "." + m.Marker.Step
		}
		out = append(out, s+" "+m.Marker.Verb)
	}
	return out
}

// The markers a scan reads are committed with their lines' offsets (the
// store holds them pending, keyed by session, offset and index, for the
// session's project) and handed over once, together, after the round;
// reading on from the saved offsets gives only the new lines' markers.
func TestIndexer_markersCommittedWithTheirLines(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	path, sid, lines := planLog(t, home)
	// The log as it stood after the agent's third reply.
	cut := 0
	for i, l := range lines {
		if bytes.Contains(l, []byte("progress: T001.S2 blocked")) {
			cut = i + 1
		}
	}
	if err := os.WriteFile(path, bytes.Join(lines[:cut], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var got sink
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st, Markers: &got})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rounds := got.take()
	if len(rounds) != 1 || !slices.Equal(markerTexts(rounds[0]), []string{"T001 start", "T001.S1 done", "T001.S2 blocked"}) {
		t.Fatalf("first scan handed over %v", rounds)
	}
	first := rounds[0][0]
	if !strings.HasPrefix(first.Key, sid+":") || first.Session != sid || first.Project != "/tmp/capture-plan/cc/plan-markers/work" {
		t.Fatalf("marker %+v", first)
	}
	pending, err := st.PendingMarkers(ctx, 100)
	if err != nil || len(pending) != 3 || pending[0] != first {
		t.Fatalf("the store's pending markers: %+v, %v", pending, err)
	}

	// Nothing new: a scan hands over nothing.
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if r := got.take(); len(r) != 0 {
		t.Fatalf("a scan with nothing new handed over %v", r)
	}
	// The rest of the session: only its markers, the two of one reply
	// numbered 0 and 1 at one offset.
	appendTo(t, path, bytes.Join(lines[cut:], nil))
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rounds = got.take()
	if len(rounds) != 1 || !slices.Equal(markerTexts(rounds[0]), []string{"T001.S2 done", "T002.S1 done", "T002.S2 done"}) {
		t.Fatalf("second scan handed over %v", rounds)
	}
	if a, b := rounds[0][0].Marker, rounds[0][1].Marker; a.Offset != b.Offset || a.Index != 0 || b.Index != 1 {
		t.Fatalf("one reply's markers: %+v %+v", a, b)
	}
	if pending, _ = st.PendingMarkers(ctx, 100); len(pending) != 6 {
		t.Fatalf("%d pending", len(pending))
	}

	// The file replaced by the same bytes (an editor's save, a restore):
	// it is read again from 0, and its markers are the same keys.
	data, _ := os.ReadFile(path)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if pending, _ = st.PendingMarkers(ctx, 100); len(pending) != 6 {
		t.Fatalf("after the file was replaced: %d pending", len(pending))
	}
}
