package openclaw

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
)

// captured is a real OpenClaw 2026.9.6 run (openclaw agent exec against a
// scripted model): see testdata/fixtures/captured/openclaw-2026.9.6.
const captured = "../../testdata/fixtures/captured/openclaw-2026.9.6/"

var capturedRuns = []string{"todos"}

// truth reads what OpenClaw itself stored, with SQL of the test's own: each
// card's steps by the key's current session, and the trajectory's tool
// calls (and how many failed) by session.
func truth(t *testing.T, db string) (cards map[string][]tally.Item, calls, failed map[string]int) {
	t.Helper()
	c, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cards, calls, failed = map[string][]tally.Item{}, map[string]int{}, map[string]int{}
	rs, err := c.Query(`SELECT n.current_session_id, c.steps_json FROM session_progress_cards c JOIN session_nodes n USING (session_key)`)
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		var sid, steps string
		if err := rs.Scan(&sid, &steps); err != nil {
			t.Fatal(err)
		}
		var raw []struct{ Step, Status string }
		if err := json.Unmarshal([]byte(steps), &raw); err != nil {
			t.Fatal(err)
		}
		for _, s := range raw {
			st, _ := tally.ParseStatus(s.Status)
			cards[sid] = append(cards[sid], tally.Item{Title: s.Step, Status: st, Source: tally.SourceTodo})
		}
	}
	rs.Close()
	rs, err = c.Query(`SELECT session_id, event_json FROM trajectory_runtime_events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	for rs.Next() {
		var sid, ev string
		if err := rs.Scan(&sid, &ev); err != nil {
			t.Fatal(err)
		}
		var e struct {
			Type string
			Data struct{ Success *bool }
		}
		if err := json.Unmarshal([]byte(ev), &e); err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Type == "tool.call":
			calls[sid]++
		case e.Type == "tool.result" && e.Data.Success != nil && !*e.Data.Success:
			failed[sid]++
		}
	}
	return cards, calls, failed
}

// TestCaptured_theCardTallyShowsIsTheCardOpenClawStored: on every capture,
// the list is the progress card's steps as OpenClaw stored them, the
// runtime counts every tool call its trajectory recorded, and the session
// has its cwd and a turn that ended.
func TestCaptured_theCardTallyShowsIsTheCardOpenClawStored(t *testing.T) {
	for _, run := range capturedRuns {
		root := filepath.Join(captured, run, "state")
		db := filepath.Join(root, "agents", "main", "agent", dbName)
		a := New(Options{Root: root})
		fi, ok := a.Match(root, db)
		if !ok {
			t.Fatalf("%s: Match refused the agent's database", run)
		}
		got, diags, err := a.ReadDatabase(context.Background(), fi.Path)
		if err != nil || len(diags) > 0 {
			t.Fatalf("%s: %v %v", run, err, diags)
		}
		cards, calls, failed := truth(t, db)
		if len(cards) == 0 {
			t.Fatalf("%s: the capture holds no card", run)
		}
		for sid, want := range cards {
			st := fold(sid, got[sid])
			if items := agentdbtest.List(st, ""); !reflect.DeepEqual(items, want) {
				t.Errorf("%s %s: list\n got %+v\nwant %+v", run, sid, items, want)
			}
			rec := tally.Merge([]*tally.FileState{st})
			s := rec.Session(time.Now())
			if s.Runtime == nil || s.Runtime.Calls != calls[sid] || s.Runtime.Failed != failed[sid] || s.Runtime.Running != 0 {
				t.Errorf("%s %s: runtime %+v, want %d calls, %d failed, none running", run, sid, s.Runtime, calls[sid], failed[sid])
			}
			if st.Project == "" || st.Signal != tally.SignalWaiting || st.Title == "" {
				t.Errorf("%s %s: project %q signal %v title %q", run, sid, st.Project, st.Signal, st.Title)
			}
		}
	}
}

func fold(id string, evs []tally.Event) *tally.FileState {
	st := &tally.FileState{Session: id, Agent: Agent}
	for _, ev := range evs {
		st.Apply(ev)
	}
	return st
}
