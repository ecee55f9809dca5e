package copilot

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
)

// captured are real Copilot CLI 1.0.102 runs: see
// testdata/fixtures/captured/copilot-cli-1.0.102.
const captured = "../../testdata/fixtures/captured/copilot-cli-1.0.102/"

func sessionDirs(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(captured + "*/copilot_home/" + stateDir + "/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no captured sessions: %v", err)
	}
	return dirs
}

// storedTodos is the list as Copilot keeps it, read with the test's own
// SQL in the order its SDK reads it back (creation time, then insertion).
func storedTodos(t *testing.T, db string) []tally.Item {
	t.Helper()
	c, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rs, err := c.Query(`SELECT id, title, COALESCE(description, ''), status FROM todos ORDER BY created_at, rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	words := map[string]tally.Status{"pending": tally.StatusPending, "in_progress": tally.StatusInProgress, "done": tally.StatusCompleted, "blocked": tally.StatusBlocked}
	var out []tally.Item
	for rs.Next() {
		var it tally.Item
		var w string
		if err := rs.Scan(&it.ID, &it.Title, &it.Description, &w); err != nil {
			t.Fatal(err)
		}
		it.Status, it.Source = words[w], tally.SourceTodo
		out = append(out, it)
	}
	return out
}

// TestCaptured_theListTallyShowsIsTheTodosTableCopilotKept: on every
// capture the list is the session.db todos table, the runtime progress
// is every tool the events log shows run, and the session has its cwd,
// a title and its end.
func TestCaptured_theListTallyShowsIsTheTodosTableCopilotKept(t *testing.T) {
	for _, dir := range sessionDirs(t) {
		home := filepath.Dir(filepath.Dir(dir))
		id := filepath.Base(dir)
		a := New(Options{Home: home})
		dbi, ok := a.Match(home, filepath.Join(dir, dbName))
		if !ok || dbi.Layout != tally.LayoutDatabase {
			t.Fatalf("%s: session.db not matched: %+v", id, dbi)
		}
		parts, diags, err := a.ReadDatabase(context.Background(), dbi.Path)
		if err != nil || len(diags) > 0 {
			t.Fatalf("%s: %v %v", id, err, diags)
		}
		dbState := fold(id, parts[id])
		want := storedTodos(t, dbi.Path)
		if got := agentdbtest.List(dbState, ""); len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: list\n got %+v\nwant %+v", id, got, want)
		}
		li, ok := a.Match(home, filepath.Join(dir, eventsName))
		if !ok || li.Session != id || li.Layout != tally.LayoutLog {
			t.Fatalf("%s: events.jsonl matched as %+v", id, li)
		}
		data, err := os.ReadFile(li.Path)
		if err != nil {
			t.Fatal(err)
		}
		log := adaptertest.Fold(t, a, li, data, 0)
		rec := tally.Merge([]*tally.FileState{log, dbState})
		s := rec.Session(time.Now())
		starts := strings.Count(string(data), `{"type":"tool.execution_start"`)
		if s.Runtime == nil || s.Runtime.Calls != starts || s.Runtime.Failed != strings.Count(string(data), `"success":false`) || s.Runtime.Running != 0 {
			t.Errorf("%s: runtime %+v, want the %d tools the log shows run", id, s.Runtime, starts)
		}
		if s.Project == "" || !strings.HasPrefix(s.Title, "Create greet.py") || rec.Signal != tally.SignalEnded || len(s.Items) != len(want) {
			t.Errorf("%s: project %q title %q signal %v items %d", id, s.Project, s.Title, rec.Signal, len(s.Items))
		}
	}
}

func TestCaptured_theEventsLogPassesTheAdapterSuite(t *testing.T) {
	for _, dir := range sessionDirs(t) {
		home := filepath.Dir(filepath.Dir(dir))
		a := New(Options{Home: home})
		fi, _ := a.Match(home, filepath.Join(dir, eventsName))
		data, err := os.ReadFile(fi.Path)
		if err != nil {
			t.Fatal(err)
		}
		adaptertest.Run(t, a, fi, data)
	}
}

func FuzzDecoder(f *testing.F) {
	var seeds [][]byte
	dirs, _ := filepath.Glob(captured + "todos/copilot_home/" + stateDir + "/*")
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, eventsName)); err == nil {
			seeds = append(seeds, b)
		}
	}
	seeds = append(seeds, []byte(`{"type":"tool.execution_complete","data":{"toolCallId":"x","success":false}}`+"\n"+`{"type":"permission.requested"}`))
	adaptertest.Fuzz(f, New(Options{Home: f.TempDir()}), tally.FileInfo{Path: "events.jsonl", Session: "fuzz"}, seeds...)
}

func fold(id string, evs []tally.Event) *tally.FileState {
	st := &tally.FileState{Session: id, Agent: Agent}
	for _, ev := range evs {
		st.Apply(ev)
	}
	return st
}

var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   filepath.Join(stateDir, "s1", dbName),
	New:   func(root string) tally.DatabaseReader { return New(Options{Home: root}) },
}

// TestBuilt_dependenciesBlockAndTheOrderIsCreationThenInsertion.
func TestBuilt_dependenciesBlockAndTheOrderIsCreationThenInsertion(t *testing.T) {
	path, _ := fx.Build(t, "built-session.sql")
	st := fold("s1", fx.Sessions(t, path)["s1"])
	rec := tally.Merge([]*tally.FileState{st})
	s := rec.Session(time.Now())
	var got []string
	for _, it := range s.Items {
		got = append(got, it.ID+":"+it.StatusWord()+":"+map[bool]string{true: "blocked", false: "open"}[it.Blocked])
	}
	want := []string{"build:completed:open", "sign:blocked:blocked", "ship:pending:blocked"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items %v, want %v", got, want)
	}
	if !reflect.DeepEqual(s.Items[2].BlockedBy, []string{"sign", "build"}) || s.Items[2].Title != "Shipping the release" {
		t.Errorf("ship: %+v", s.Items[2])
	}
	if want := time.Date(2026, 11, 26, 9, 2, 0, 0, time.UTC); !st.LastAt.Equal(want) {
		t.Errorf("last %v, want the newest updated_at", st.LastAt)
	}
}

func TestBuilt_aSessionThatNeverKeptTodosHasNoList(t *testing.T) {
	path, w := fx.Build(t, "built-session.sql")
	if _, err := w.Exec(`DROP TABLE todo_deps; DROP TABLE todos; CREATE TABLE notes (x TEXT)`); err != nil {
		t.Fatal(err)
	}
	if got := fx.Sessions(t, path); len(got) != 0 {
		t.Errorf("sessions %v", got)
	}
}

func TestBuilt_anotherProgramsDatabaseIsInvalid(t *testing.T) {
	fx.Invalid(t, "built-session.sql", "ALTER TABLE todos RENAME COLUMN title TO name")
}

func TestAdapter_MatchAndSkipDir(t *testing.T) {
	a := New(Options{Home: "/h"})
	for p, want := range map[string]tally.FileInfo{
		"/h/session-state/s1/events.jsonl":       {Path: "/h/session-state/s1/events.jsonl", Session: "s1", Layout: tally.LayoutLog},
		"/h/session-state/s1/session.db-wal":     {Path: "/h/session-state/s1/session.db", Layout: tally.LayoutDatabase},
		"/h/session-state/s1/session.db-journal": {Path: "/h/session-state/s1/session.db", Layout: tally.LayoutDatabase},
		"/h/session-store.db":                    {},
		"/h/session-state/s1/files/events.jsonl": {},
		"/h/logs/events.jsonl":                   {},
	} {
		got, ok := a.Match("/h", p)
		if ok != (want.Path != "") || got != want {
			t.Errorf("Match(%s) = %+v, %v", p, got, ok)
		}
	}
	for d, want := range map[string]bool{"/h/session-state": false, "/h/session-state/s1": false, "/h/session-state/s1/checkpoints": true, "/h/pkg": true, "/h/logs": true} {
		if got := a.SkipDir("/h", d); got != want {
			t.Errorf("SkipDir(%s) = %v", d, got)
		}
	}
}
