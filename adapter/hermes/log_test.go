package hermes

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const logFixture = "testdata/built-session_20260105_120000_abcdef.json"

func TestLog_Built(t *testing.T) {
	data, err := os.ReadFile(logFixture)
	if err != nil {
		t.Fatal(err)
	}
	dec := &logDecoder{session: "20260105_120000_abcdef"}
	st := &tally.FileState{}
	_, diags := st.FeedWhole(dec, data)
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	want := []tally.Item{
		todo("1", "Delete dead code", tally.StatusCompleted),
		todo("2", "Run linters", tally.StatusInProgress),
	}
	if got := items(st); !reflect.DeepEqual(got, want) {
		t.Errorf("list:\n got %+v\nwant %+v", got, want)
	}
	if st.Signal != tally.SignalWaiting || st.Session != "20260105_120000_abcdef" {
		t.Errorf("signal %v session %q", st.Signal, st.Session)
	}
	if want := time.Date(2026, 1, 5, 12, 5, 0, 654321000, time.Local); !st.LastAt.Equal(want) {
		t.Errorf("last activity %v, want %v (local time, as Hermes wrote it)", st.LastAt, want)
	}
}

func TestLog_Malformed(t *testing.T) {
	st := &tally.FileState{}
	_, diags := st.FeedWhole(&logDecoder{}, []byte(`{"messages": [{"role": "user"}, {"content": 3}, "x"]}`))
	if st.Stats.Malformed != 1 || len(diags) != 1 {
		t.Errorf("malformed %d, diags %v: want the bad messages counted", st.Stats.Malformed, diags)
	}
}

func TestAdapter_Match(t *testing.T) {
	home := t.TempDir()
	a := New(Options{Home: home})
	log := filepath.Join(home, "sessions", "session_20260105_120000_abcdef.json")
	cases := []struct {
		path string
		want tally.FileInfo
		ok   bool
	}{
		{filepath.Join(home, "state.db"), tally.FileInfo{Path: filepath.Join(home, "state.db"), Layout: tally.LayoutDatabase}, true},
		{filepath.Join(home, "state.db-wal"), tally.FileInfo{Path: filepath.Join(home, "state.db"), Layout: tally.LayoutDatabase}, true},
		{filepath.Join(home, "state.db-shm"), tally.FileInfo{}, false},
		{log, tally.FileInfo{Path: log, Session: "20260105_120000_abcdef", Layout: tally.LayoutWhole}, true},
		{filepath.Join(home, "sessions", "sessions.json"), tally.FileInfo{}, false},
		{filepath.Join(home, "hermes-agent", "state.db"), tally.FileInfo{}, false},
		{filepath.Join(home, "sessions", "x", "session_1.json"), tally.FileInfo{}, false},
	}
	for _, c := range cases {
		got, ok := a.Match(home, c.path)
		if ok != c.ok || got != c.want {
			t.Errorf("Match(%s) = %+v, %v; want %+v, %v", c.path, got, ok, c.want, c.ok)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "state.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Match(home, log); ok {
		t.Error("a session log is matched although state.db holds the sessions")
	}
}

func TestNew_Home(t *testing.T) {
	t.Setenv("HERMES_HOME", "/srv/hermes")
	if got := New(Options{}).Roots(); len(got) != 0 {
		t.Errorf("no home: roots %v, want none (the environment is not the adapter's to read)", got)
	}
	if got := New(Options{Home: "/opt/h"}).Roots(); !reflect.DeepEqual(got, []string{"/opt/h"}) {
		t.Errorf("roots with Home = %v", got)
	}
}

func TestStream_Built(t *testing.T) {
	data, err := os.ReadFile("testdata/built-stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Home: t.TempDir()})
	fi := tally.FileInfo{Path: "built-stream.jsonl"}
	adaptertest.Run(t, a, fi, data)
	st := adaptertest.Fold(t, a, fi, data, 0)
	want := []tally.Item{
		todo("1", "Delete dead code", tally.StatusCompleted),
		todo("2", "Run linters", tally.StatusInProgress),
		todo("3", "Write changelog", tally.StatusCancelled),
		todo("4", "Tag a release", tally.StatusPending),
	}
	if got := items(st); !reflect.DeepEqual(got, want) {
		t.Errorf("list:\n got %+v\nwant %+v", got, want)
	}
	if st.Session != "20260105_120000_abcdef" || st.Signal != tally.SignalWaiting {
		t.Errorf("session %q signal %v", st.Session, st.Signal)
	}
	for i, line := range []string{`{"role": "user", "content": "hi"}`, ` {"role":"assistant"}`} {
		if !a.Sniff([]byte(line)) {
			t.Errorf("Sniff(line %d) = false", i)
		}
	}
	for _, line := range []string{`{"type":"user","sessionId":"x","message":{"role":"user"}}`, `{"jsonrpc":"2.0"}`, `role`} {
		if a.Sniff([]byte(line)) {
			t.Errorf("Sniff(%s) = true", line)
		}
	}
}

// TestStream_ArgumentsUntilResult: a call is applied from its arguments as
// soon as it is read, and the result then replaces it.
func TestStream_ArgumentsUntilResult(t *testing.T) {
	data, err := os.ReadFile("testdata/built-stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(data)
	a := New(Options{Home: t.TempDir()})
	st := adaptertest.Fold(t, a, tally.FileInfo{}, []byte(lines[0]+lines[1]+lines[2]+lines[3]), 0)
	// call_s2's merge, read from its arguments: id 4's "later" is not a
	// status Hermes keeps, so it is not set.
	want := []tally.Item{
		todo("1", "Delete dead code", tally.StatusCompleted),
		todo("2", "Run linters", tally.StatusInProgress),
		todo("3", "Write changelog", tally.StatusCancelled),
		todo("4", "Tag a release", tally.StatusUnknown),
	}
	if got := items(st); !reflect.DeepEqual(got, want) {
		t.Errorf("before the result:\n got %+v\nwant %+v", got, want)
	}
}

func splitLines(data []byte) []string {
	var out []string
	start := 0
	for i, b := range data {
		if b == '\n' {
			out = append(out, string(data[start:i+1]))
			start = i + 1
		}
	}
	return out
}
