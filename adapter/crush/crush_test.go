package crush

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
)

const (
	flaky = "9d2f6c1e-4b7a-4e8e-9a51-0c3d2e1f4a5b"
	build = "5e0c1d2a-3b4c-4d5e-8f60-718293a4b5c6"
)

// fx is how Crush keeps a project's crush.db: in its .crush directory.
var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   filepath.Join(dataDirName, dbName),
	New:   func(root string) tally.DatabaseReader { return New(Options{Roots: []string{root}}) },
}

var (
	buildDB  = fx.Build
	sessions = fx.Sessions // a sound database: no diagnostics
	readDB   = fx.Read
	fold     = fx.Fold
	list     = agentdbtest.List
)

func todo(title, active string, s tally.Status, raw string) tally.Item {
	return tally.Item{Title: title, ActiveForm: active, Status: s, RawStatus: raw, Source: tally.SourceTodo}
}

func TestSessions_Built(t *testing.T) {
	path, _ := buildDB(t, "built-crush.sql")
	all := sessions(t, path)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{build, flaky}; !reflect.DeepEqual(ids, want) {
		t.Errorf("sessions = %v, want %v (task and title sessions are not sessions of their own)", ids, want)
	}
	st := fold(flaky, all[flaky])
	want := []tally.Item{
		todo("Reproduce the flake", "Reproducing the flake", tally.StatusCompleted, ""),
		todo("Find the race", "Finding the race", tally.StatusInProgress, ""),
		todo("Add a regression test", "Adding a regression test", tally.StatusPending, ""),
		todo("Wait for CI", "Waiting for CI", tally.StatusUnknown, "blocked"),
	}
	if got := list(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("list:\n got %+v\nwant %+v", got, want)
	}
	if got := list(st, ""); got[1].Label() != "Finding the race" {
		t.Errorf("the step in progress shows %q, want its active_form", got[1].Label())
	}
	sub := []tally.Item{todo("List test files", "Listing test files", tally.StatusCompleted, "")}
	if got := list(st, "toolu_01Tk9"); !reflect.DeepEqual(got, sub) {
		t.Errorf("sub-agent list = %+v, want %+v", got, sub)
	}
	proj := filepath.Dir(filepath.Dir(path))
	if st.Title != "Fix the flaky test" || st.Project != proj || st.Signal != tally.SignalWaiting {
		t.Errorf("title %q project %q (want %q) signal %v", st.Title, st.Project, proj, st.Signal)
	}
	if want := time.Unix(1767607700, 0); !st.LastAt.Equal(want) || !st.StartedAt.Equal(time.Unix(1767607200, 0)) {
		t.Errorf("started %v last %v", st.StartedAt, st.LastAt)
	}
	other := fold(build, all[build])
	if other.Lists[""] != nil || other.Signal != tally.SignalWorking {
		t.Errorf("session without todos: lists %v signal %v", other.Lists, other.Signal)
	}
}

func TestSessions_SeesWALWrites(t *testing.T) {
	path, w := buildDB(t, "built-crush.sql")
	_ = sessions(t, path)
	if _, err := w.Exec(`UPDATE sessions SET todos = '[{"content":"Explain make","status":"in_progress","active_form":"Explaining make"}]' WHERE id = ?`, build); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the write did not go to the WAL: %v", err)
	}
	got := list(fold(build, sessions(t, path)[build]), "")
	want := []tally.Item{todo("Explain make", "Explaining make", tally.StatusInProgress, "")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after a write: %+v, want %+v", got, want)
	}
}

func TestSessions_NotADatabase(t *testing.T) {
	fx.Invalid(t, "built-crush.sql", "ALTER TABLE sessions RENAME TO chats")
}

func TestAdapter_Match(t *testing.T) {
	root := t.TempDir()
	a := New(Options{Roots: []string{root}})
	db := filepath.Join(root, "api", ".crush", "crush.db")
	for _, p := range []string{db, db + "-wal"} {
		if fi, ok := a.Match(root, p); !ok || fi != (tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}) {
			t.Errorf("Match(%s) = %+v, %v", p, fi, ok)
		}
	}
	if _, ok := a.Match(root, filepath.Join(root, "crush.db")); !ok {
		t.Error("a database directly in a root (a data directory) is not matched")
	}
	for _, p := range []string{db + "-shm", filepath.Join(root, "api", "crush.db"), filepath.Join(root, "api", ".crush", "logs", "crush.log")} {
		if _, ok := a.Match(root, p); ok {
			t.Errorf("Match(%s) = true", p)
		}
	}
	if got := project(db); got != filepath.Join(root, "api") {
		t.Errorf("project = %q", got)
	}
	t.Setenv("CRUSH_DATA_DIR", "/srv/crush-data")
	if got := New(Options{}).Roots(); len(got) != 0 {
		t.Errorf("no roots given: roots %v, want none (the environment is not the adapter's to read)", got)
	}
}

func FuzzTodos(f *testing.F) {
	f.Add([]byte(`[{"content":"a","status":"in_progress","active_form":"A-ing"}]`))
	f.Add([]byte(`[{"content":1}]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, ok, err := todoItems(data)
		if !ok {
			if err == nil && len(data) > 0 {
				t.Fatal("a list neither read nor reported")
			}
			return
		}
		if _, err := json.Marshal(items); err != nil {
			t.Fatal(err)
		}
	})
}

func BenchmarkSessions(b *testing.B) {
	path, w := buildDB(b, "built-crush.sql")
	tx, _ := w.Begin()
	for s := range 500 {
		tx.Exec(`INSERT INTO sessions (id, title, todos, created_at, updated_at) VALUES (?, 't', '[{"content":"a","status":"pending","active_form":"b"},{"content":"c","status":"completed","active_form":"d"}]', ?, ?)`, s, 1.7e9+s, 1.7e9+s)
		for m := range 100 {
			tx.Exec(`INSERT INTO messages (id, session_id, role, created_at, updated_at, finished_at) VALUES (?, ?, 'assistant', ?, ?, ?)`, s*1000+m, s, m, m, m)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got := sessions(b, path); len(got) != 502 {
			b.Fatalf("%d sessions", len(got))
		}
	}
}

// TestSessions_ofMessagesWrittenInOneSecondTheLastInsertedIsTheNewest:
// Crush's times are whole seconds, so a quick turn's messages share one;
// whose turn it is comes from the one Crush wrote last, not from whichever
// the query met first (the real capture's prompt, its answer and its tool
// results all bear one second).
func TestSessions_ofMessagesWrittenInOneSecondTheLastInsertedIsTheNewest(t *testing.T) {
	path, w := buildDB(t, "built-crush.sql")
	if _, err := w.Exec(`DELETE FROM messages`); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct{ id, session, role string }{
		{"a1", flaky, "user"}, {"a2", flaky, "assistant"}, // the answer came last: the user's turn
		{"b1", build, "assistant"}, {"b2", build, "user"}, // a new prompt came last: the agent's turn
	} {
		if _, err := w.Exec(`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at, finished_at)
			VALUES (?, ?, ?, '[]', 1767607600, 1767607600, CASE WHEN ? = 'assistant' THEN 1767607600 END)`, m.id, m.session, m.role, m.role); err != nil {
			t.Fatal(err)
		}
	}
	all := sessions(t, path)
	if got := fold(flaky, all[flaky]).Signal; got != tally.SignalWaiting {
		t.Errorf("answer written last: signal %v, want waiting", got)
	}
	if got := fold(build, all[build]).Signal; got != tally.SignalWorking {
		t.Errorf("prompt written last: signal %v, want working", got)
	}
}
