package openclaw

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
	"github.com/tallyhq/tally/detect"
)

var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   filepath.Join(agentsDir, "main", agentDir, dbName),
	New:   func(root string) tally.DatabaseReader { return New(Options{Root: root}) },
}

func session(t *testing.T, st *tally.FileState) tally.Session {
	t.Helper()
	rec := tally.Merge([]*tally.FileState{st})
	return rec.Session(time.Date(2026, 11, 26, 8, 24, 0, 0, time.UTC))
}

func TestBuilt_childrenAreRelayedToTheirParentAsRuntimeProgress(t *testing.T) {
	path, _ := fx.Build(t, "built-openclaw.sql")
	all := fx.Sessions(t, path)
	if _, ok := all["k1"]; ok {
		t.Error("a spawned child is a session of its own; it belongs to its parent")
	}
	st := fold("p1", all["p1"])
	want := []tally.Item{
		{Title: "Survey the docs folder", Status: tally.StatusCompleted, Source: tally.SourceTodo},
		{Title: "Refresh the API page", Status: tally.StatusInProgress, Source: tally.SourceTodo},
		{Title: "Check the links", Status: tally.StatusPending, Source: tally.SourceTodo},
	}
	if got := agentdbtest.List(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("card:\n got %+v\nwant %+v", got, want)
	}
	s := session(t, st)
	// read failed, exec runs, child "check links" runs, child "fix images" failed.
	rt := tally.RuntimeProgress{Calls: 4, Failed: 2, Running: 2, Current: "Delegating check links", Last: "Delegate fix images"}
	if s.Runtime == nil || *s.Runtime != rt {
		t.Errorf("runtime = %+v, want %+v", s.Runtime, rt)
	}
	child := agentdbtest.List(st, "agent:main:subagent:bbb")
	if len(child) != 1 || child[0].Title != "Find broken images" || st.Lists["agent:main:subagent:bbb"].Name != "fix images" {
		t.Errorf("the failed child's own card: %+v", child)
	}
	if st.Project != "/src/docs" || st.Title != "docs-refresh" || st.Signal != tally.SignalWorking {
		t.Errorf("project %q title %q signal %v", st.Project, st.Title, st.Signal)
	}
}

// TestBuilt_anIdleTimeoutIsAStallNoticeAndTheSessionIsStalledAtOnce: a run
// OpenClaw ended idle-timed-out after the session's newest message flags
// the session stalled from that moment, not StalledAfter later.
func TestBuilt_anIdleTimeoutIsAStallNoticeAndTheSessionIsStalledAtOnce(t *testing.T) {
	path, _ := fx.Build(t, "built-openclaw.sql")
	evs := fx.Sessions(t, path)["s2"]
	var noticed bool
	for _, ev := range evs {
		noticed = noticed || ev.Meta.Stalled
	}
	if !noticed {
		t.Fatal("no stall notice")
	}
	rules := detect.DefaultRules()
	var ds detect.State
	st := &tally.FileState{Session: "s2", Agent: Agent}
	for _, ev := range evs {
		st.Apply(ev)
		switch {
		case ev.Meta.Stalled:
			rules.Observe(&ds, detect.Stalled(ev.At))
		case ev.Kind == tally.EventMeta && ev.Meta.Signal != tally.SignalNone:
			o, _ := detect.FromSignal(ev.Meta.Signal, ev.At)
			rules.Observe(&ds, o)
		}
	}
	_, stallAt := rules.Sum(&ds)
	if want := time.Date(2026, 11, 26, 8, 23, 20, 0, time.UTC); !stallAt.Equal(want) {
		t.Errorf("stallAt = %v, want the notice's (the row's newest) time, not 5 minutes later %v", stallAt, want)
	}
	rec := tally.Merge([]*tally.FileState{st})
	rec.StallAt = stallAt
	if s := rec.Session(stallAt.Add(time.Second)); !s.Flags.Has(tally.FlagStalled) {
		t.Errorf("flags %v: not stalled", s.Flags)
	}
	if l := st.Lists[""]; l == nil || len(l.Items()) != 0 {
		t.Errorf("a cleared card is an empty list: %+v", l)
	}
}

// TestBuilt_aCompressedEventIsRead: events OpenClaw stores zstd-compressed
// (event_zstd) are read like the others.
func TestBuilt_aCompressedEventIsRead(t *testing.T) {
	path, w := fx.Build(t, "built-openclaw.sql")
	enc, _ := zstd.NewWriter(nil)
	ev := `{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-11-26T08:20:09.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Shall I also check the links?"}],"stopReason":"stop"}}`
	if _, err := w.Exec(`INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes) VALUES ('p1', 3, NULL, 1, ?, ?)`, enc.EncodeAll([]byte(ev), nil), len(ev)); err != nil {
		t.Fatal(err)
	}
	st := fold("p1", fx.Sessions(t, path)["p1"])
	if st.Signal != tally.SignalAsking {
		t.Errorf("signal %v: the compressed question was not read", st.Signal)
	}
}

func TestBuilt_aDamagedCardOrEventIsADiagnostic(t *testing.T) {
	path, w := fx.Build(t, "built-openclaw.sql")
	if _, err := w.Exec(`UPDATE session_progress_cards SET steps_json = '[{"step":' WHERE session_key = 'agent:main:docs-refresh';
		INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes) VALUES ('p1', 3, NULL, 1, X'28B52FFD00', 5)`); err != nil {
		t.Fatal(err)
	}
	all, diags := fx.Read(t, path)
	if len(diags) != 2 {
		t.Fatalf("diagnostics %v, want the card and the event", diags)
	}
	if st := fold("p1", all["p1"]); st.Lists[""] != nil || st.Project != "/src/docs" {
		t.Errorf("the damaged session lost more than its card: %+v", st)
	}
}

func TestBuilt_anotherProgramsDatabaseIsInvalid(t *testing.T) {
	fx.Invalid(t, "built-openclaw.sql", "DROP TABLE session_windows")
}

func TestAdapter_MatchAndSkipDir(t *testing.T) {
	a := New(Options{Root: "/s"})
	for p, want := range map[string]bool{
		"/s/agents/main/agent/openclaw-agent.sqlite":     true,
		"/s/agents/main/agent/openclaw-agent.sqlite-wal": true,
		"/s/agents/main/openclaw-agent.sqlite":           false,
		"/s/state/openclaw.sqlite":                       false,
		"/s/agents/main/agent/x.jsonl":                   false,
	} {
		if _, ok := a.Match("/s", p); ok != want {
			t.Errorf("Match(%s) = %v", p, ok)
		}
	}
	for d, want := range map[string]bool{
		"/s/agents": false, "/s/agents/main": false, "/s/agents/main/agent": false,
		"/s/agents/main/sessions": true, "/s/plugin-skills": true, "/s/workspace": true, "/s/agents/main/agent/x": true,
	} {
		if got := a.SkipDir("/s", d); got != want {
			t.Errorf("SkipDir(%s) = %v", d, got)
		}
	}
}
