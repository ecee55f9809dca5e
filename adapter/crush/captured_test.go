package crush

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

// captured is the real Crush v0.90.0 run (see the captures' README).
const captured = "../../testdata/fixtures/captured/crush-0.90.0/todowrite"

// stored is an item in Crush's own words (sessions.todos).
type stored struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"active_form"`
}

// TestList_isCrush0_90sOwnSessionsTodos: on the real capture the list Tally
// shows is the session's todos column as Crush stored it — the list its
// last todos call left — with each item's active form; its runtime list is
// the tool_call parts of its messages, none failed.
func TestList_isCrush0_90sOwnSessionsTodos(t *testing.T) {
	dir := filepath.Join(captured, "crush_data") // a data directory named otherwise
	db := filepath.Join(dir, dbName)
	a := New(Options{Roots: []string{dir}})
	if _, ok := a.Match(dir, db); !ok {
		t.Fatal("the capture's crush.db is not matched")
	}
	all, diags, err := a.ReadDatabase(context.Background(), db)
	if err != nil || len(diags) != 0 {
		t.Fatalf("read: %v, %v", err, diags)
	}
	if len(all) != 1 {
		t.Fatalf("%d sessions, want the capture's one", len(all))
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for id, evs := range all {
		var raw string
		if err := conn.QueryRow(`SELECT todos FROM sessions WHERE id = ?`, id).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var want []stored
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		st := fold(id, evs)
		var got []stored
		for _, it := range agentdbtest.List(st, "") {
			got = append(got, stored{it.Title, it.StatusWord(), it.ActiveForm})
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("session %s: list %v, Crush's sessions.todos %v", id, got, want)
		}
		var calls, failed int
		if err := conn.QueryRow(`SELECT count(CASE WHEN json_extract(p.value, '$.type') = 'tool_call' THEN 1 END),
			count(CASE WHEN json_extract(p.value, '$.type') = 'tool_result' AND json_extract(p.value, '$.data.is_error') THEN 1 END)
			FROM messages m, json_each(m.parts) p WHERE m.session_id = ?`, id).Scan(&calls, &failed); err != nil {
			t.Fatal(err)
		}
		rec := tally.Merge([]*tally.FileState{st})
		s := rec.Session(time.Now())
		if s.Runtime == nil || calls == 0 || s.Runtime.Calls != calls || s.Runtime.Failed != failed || s.Runtime.Running != 0 {
			t.Errorf("session %s: runtime %+v, Crush's messages %d tool calls, %d failed", id, s.Runtime, calls, failed)
		}
		if st.Title != "Greet helper with test and README" || st.Signal != tally.SignalWaiting {
			t.Errorf("title %q, signal %v", st.Title, st.Signal)
		}
	}
}

// TestProjects_CrushsOwnIndexNamesTheCapturedProject: the projects.json
// Crush wrote in the capture's global data directory reads as the project
// it ran in and that project's .crush.
func TestProjects_CrushsOwnIndexNamesTheCapturedProject(t *testing.T) {
	got := readProjects(filepath.Join(captured, "crush_global"))
	want := []indexed{{dataDir: "/tmp/capture23d/crush/todowrite/work/.crush", path: "/tmp/capture23d/crush/todowrite/work"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("projects %+v, want %+v", got, want)
	}
}
