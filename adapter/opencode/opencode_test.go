package opencode

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

// fx is how OpenCode keeps opencode.db: at the top of its data directory.
var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   dbName,
	New:   func(root string) tally.DatabaseReader { return New(Options{DataDir: root}) },
}

var (
	buildDB = fx.Build
	readDB  = fx.Read
	fold    = fx.Fold
	list    = agentdbtest.List
)

// sessions reads path, whose one damaged message (msg_3) BadRows checks.
func sessions(t testing.TB, path string) map[string][]tally.Event {
	t.Helper()
	got, _ := readDB(t, path)
	return got
}

func todo(id, title, priority string, s tally.Status, raw string) tally.Item {
	return tally.Item{ID: id, Title: title, Priority: priority, Status: s, RawStatus: raw, Source: tally.SourceTodo}
}

func TestSessions_Built(t *testing.T) {
	path, _ := buildDB(t, "built-opencode.sql")
	all := sessions(t, path)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{"ses_4a1b", "ses_4c00"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("sessions = %v, want %v (the sub-agent's session is a list of its parent)", ids, want)
	}

	st := fold("ses_4a1b", all["ses_4a1b"])
	want := []tally.Item{
		todo("", "Add a theme toggle", "high", tally.StatusCompleted, ""),
		todo("", "Persist the choice", "medium", tally.StatusInProgress, ""),
		todo("", "Dark mode for charts", "low", tally.StatusCancelled, ""),
		todo("", "Ask design about contrast", "medium", tally.StatusUnknown, "waiting"),
		todo("", "Ship it", "low", tally.StatusPending, ""),
	}
	if got := list(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("list, by position:\n got %+v\nwant %+v", got, want)
	}
	sub := []tally.Item{todo("", "Grep for theme variables", "high", tally.StatusCompleted, "")}
	if got := list(st, "ses_4a1c"); !reflect.DeepEqual(got, sub) {
		t.Errorf("sub-agent list = %+v, want %+v", got, sub)
	}
	if st.Title != "Add dark mode" || st.Project != "/home/dev/app" || st.Signal != tally.SignalWaiting {
		t.Errorf("title %q project %q signal %v", st.Title, st.Project, st.Signal)
	}
	if want := time.UnixMilli(1767607500000); !st.LastAt.Equal(want) {
		t.Errorf("last activity %v, want %v", st.LastAt, want)
	}

	old := fold("ses_4c00", all["ses_4c00"])
	if old.Signal != tally.SignalEnded || old.Lists[""] != nil {
		t.Errorf("archived session: signal %v lists %v", old.Signal, old.Lists)
	}
}

func TestSessions_SeesWALWrites(t *testing.T) {
	path, w := buildDB(t, "built-opencode.sql")
	_ = sessions(t, path)
	// todowrite replaces the session's rows.
	if _, err := w.Exec(`DELETE FROM todo WHERE session_id = 'ses_4a1b';
		INSERT INTO todo VALUES ('ses_4a1b', 'Ship it', 'completed', 'low', 0, 1767608000000, 1767608000000)`); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the write did not go to the WAL: %v", err)
	}
	st := fold("ses_4a1b", sessions(t, path)["ses_4a1b"])
	want := []tally.Item{todo("", "Ship it", "low", tally.StatusCompleted, "")}
	if got := list(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("after a write: %+v, want %+v", got, want)
	}
}

func TestSessions_NotADatabase(t *testing.T) {
	fx.Invalid(t, "built-opencode.sql", "DROP TABLE todo")
}

func TestLegacy_Built(t *testing.T) {
	dir := "testdata/built-legacy"
	a := New(Options{DataDir: dir, DB: filepath.Join(t.TempDir(), "none.db")})
	var states []*tally.FileState
	for _, rel := range []string{"storage/todo/ses_legacy1.json", "storage/session/prj_9f8e/ses_legacy1.json"} {
		path := filepath.Join(dir, rel)
		fi, ok := a.Match(dir, path)
		if !ok || fi.Session != "ses_legacy1" || fi.Layout != tally.LayoutWhole {
			t.Fatalf("Match(%s) = %+v, %v", rel, fi, ok)
		}
		dec, _ := a.NewDecoder(fi, nil)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		st := &tally.FileState{Path: path, Session: fi.Session, Agent: Agent}
		if _, diags := st.FeedWhole(dec, data); len(diags) > 0 {
			t.Fatalf("%s: %v", rel, diags)
		}
		states = append(states, st)
	}
	r := tally.Merge(states)
	want := []tally.Item{
		todo("1", "Write the migration", "high", tally.StatusCompleted, ""),
		todo("2", "Backfill old rows", "medium", tally.StatusInProgress, ""),
		todo("3", "Drop the old column", "low", tally.StatusUnknown, "paused"),
	}
	if !reflect.DeepEqual(r.Lists[""], want) {
		t.Errorf("list:\n got %+v\nwant %+v", r.Lists[""], want)
	}
	if r.Title != "Schema migration" || r.Project != "/home/dev/api" || !r.LastActivity.Equal(time.UnixMilli(1760000900000)) {
		t.Errorf("record: title %q project %q last %v", r.Title, r.Project, r.LastActivity)
	}
	if _, ok := a.Match(dir, filepath.Join(dir, "storage/message/ses_legacy1/msg_x.json")); ok {
		t.Error("a message file was matched")
	}
}

func TestAdapter_Match(t *testing.T) {
	dir := t.TempDir()
	a := New(Options{DataDir: dir})
	db := filepath.Join(dir, dbName)
	whole := tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}
	for _, p := range []string{db, db + "-wal"} {
		if fi, ok := a.Match(dir, p); !ok || fi != whole {
			t.Errorf("Match(%s) = %+v, %v", p, fi, ok)
		}
	}
	if fi, ok := a.Match(dir, filepath.Join(dir, "opencode-dev.db-wal")); !ok || fi.Path != filepath.Join(dir, "opencode-dev.db") {
		t.Errorf("channel database: %+v, %v", fi, ok)
	}
	for _, p := range []string{db + "-shm", filepath.Join(dir, "snapshot", "x", "opencode.db"), filepath.Join(dir, "log", "a.log")} {
		if _, ok := a.Match(dir, p); ok {
			t.Errorf("Match(%s) = true", p)
		}
	}
	todoFile := filepath.Join(dir, "storage", "todo", "ses_1.json")
	if _, ok := a.Match(dir, todoFile); !ok {
		t.Error("legacy todo not matched without a database")
	}
	os.WriteFile(db, nil, 0o644)
	if _, ok := a.Match(dir, todoFile); ok {
		t.Error("legacy todo matched although opencode.db holds the sessions")
	}

	b := New(Options{DataDir: dir, DB: "/var/oc/state.db"})
	if got := b.Roots(); !reflect.DeepEqual(got, []string{dir, "/var/oc"}) {
		t.Errorf("roots with OPENCODE_DB = %v", got)
	}
	if fi, ok := b.Match("/var/oc", "/var/oc/state.db-wal"); !ok || fi.Path != "/var/oc/state.db" {
		t.Errorf("OPENCODE_DB -wal: %+v, %v", fi, ok)
	}
	if got := New(Options{DataDir: dir, DB: ":memory:"}).Roots(); !reflect.DeepEqual(got, []string{dir}) {
		t.Errorf("roots with an in-memory database = %v", got)
	}
}

func FuzzLegacyTodo(f *testing.F) {
	data, _ := os.ReadFile("testdata/built-legacy/storage/todo/ses_legacy1.json")
	f.Add(data)
	f.Add([]byte(`[{"content": 1}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := &tally.FileState{}
		st.FeedWhole(legacyTodo{}, data)
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzLegacySession(f *testing.F) {
	data, _ := os.ReadFile("testdata/built-legacy/storage/session/prj_9f8e/ses_legacy1.json")
	f.Add(data)
	f.Add([]byte(`{"time": {"created": 9e18}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := &tally.FileState{}
		st.FeedWhole(legacySession{}, data)
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}
