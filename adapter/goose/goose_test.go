package goose

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
)

const (
	flaky = "20261126_1"
	make_ = "20261126_2"
	audit = "20261126_3"
)

// fx is how Goose keeps its database: sessions/sessions.db in its data
// directory.
var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   filepath.Join(sessionsDir, dbName),
	New:   func(root string) tally.DatabaseReader { return New(Options{DataDir: root}) },
}

func item(title string, s tally.Status, raw string, lossy bool) tally.Item {
	return tally.Item{Title: title, Status: s, RawStatus: raw, Lossy: lossy, Source: tally.SourceTodo}
}

// TestSessions_TheListIsTheTodosChecklist: each session's list is the
// checklist of the todo Goose saved for it (extension_data's todo.v0, the
// text todo_write wrote whole), box for box as the fixture holds it — the
// notes and the box in a code block left out; a hidden session is not
// shown; title, folder, times and whose turn come from the session's row
// and its last message.
func TestSessions_TheListIsTheTodosChecklist(t *testing.T) {
	path, _ := fx.Build(t, "built-goose.sql")
	all := fx.Sessions(t, path)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{flaky, make_, audit}; !reflect.DeepEqual(ids, want) {
		t.Errorf("sessions = %v, want %v (a hidden session is not shown)", ids, want)
	}
	st := fx.Fold(flaky, all[flaky])
	want := []tally.Item{
		item("Reproduce the flake", tally.StatusCompleted, "", false),
		item("Find the race", tally.StatusPending, "", true),
		item("Run with -race", tally.StatusCompleted, "", false),
		item("Add a regression test", tally.StatusPending, "", true),
	}
	if got := agentdbtest.List(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("list:\n got %+v\nwant %+v", got, want)
	}
	if st.Title != "Fix the flaky test" || st.Project != "/src/app" || st.Signal != tally.SignalWaiting {
		t.Errorf("title %q project %q signal %v; want the row's, and waiting after a reply that asks for no tool", st.Title, st.Project, st.Signal)
	}
	if want := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC); !st.StartedAt.Equal(want) {
		t.Errorf("started %v, want %v (created_at as chrono writes it)", st.StartedAt, want)
	}
	if want := time.Unix(1795687800, 0); !st.LastAt.Equal(want) {
		t.Errorf("last %v, want %v (the last message)", st.LastAt, want)
	}

	other := fx.Fold(make_, all[make_])
	if other.Lists[""] != nil || other.Signal != tally.SignalWorking {
		t.Errorf("session without a todo: lists %v signal %v; want none, and working while a tool is asked for", other.Lists, other.Signal)
	}

	sub := fx.Fold(audit, all[audit])
	wantSub := []tally.Item{
		item("List the handlers", tally.StatusCompleted, "", false),
		item("Check each for a timeout", tally.StatusInProgress, "", false),
		item("Ask about retries", tally.StatusUnknown, "[?]", false),
	}
	if got := agentdbtest.List(sub, ""); !reflect.DeepEqual(got, wantSub) {
		t.Errorf("sub-agent's list:\n got %+v\nwant %+v", got, wantSub)
	}
}

// TestSessions_NoExtensionSettingIsRead: extension_data also holds the
// enabled extensions' configurations, environment included; only the todo
// is taken from it, so nothing of the rest reaches an event.
func TestSessions_NoExtensionSettingIsRead(t *testing.T) {
	path, _ := fx.Build(t, "built-goose.sql")
	if s := fmt.Sprintf("%+v", fx.Sessions(t, path)); strings.Contains(s, "sk-do-not-show") {
		t.Errorf("an extension's environment reached the events: %s", s)
	}
}

// TestSessions_BadRows: extension_data that is not JSON, or a todo that is
// not Goose's state, is reported with its table, session and what was
// wrong; that session still shows its title, the others their lists.
func TestSessions_BadRows(t *testing.T) {
	path, w := fx.Build(t, "built-goose.sql")
	if _, err := w.Exec(`UPDATE sessions SET extension_data = '{"todo.v0":{"content":"- [x] cut' WHERE id = ?`, flaky); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`UPDATE sessions SET extension_data = '{"todo.v0":"just text"}' WHERE id = ?`, audit); err != nil {
		t.Fatal(err)
	}
	all, diags := fx.Read(t, path)
	if len(diags) != 2 {
		t.Fatalf("%d diagnostics, want 2: %v", len(diags), diags)
	}
	for i, want := range []string{`sessions "` + flaky + `": extension_data is not JSON`, `sessions "` + audit + `": extension_data's "todo.v0" is not Goose's todo state`} {
		if d := diags[i]; !strings.Contains(d.Msg, want) || !strings.Contains(d.Msg, "no list") || d.Path != path {
			t.Errorf("diagnostic %d = %+v, want one saying %q", i, d, want)
		}
	}
	for _, id := range []string{flaky, audit} {
		if st := fx.Fold(id, all[id]); st.Lists[""] != nil || st.Title == "" {
			t.Errorf("%s: lists %v title %q; want no list and its title", id, st.Lists, st.Title)
		}
	}
}

func TestReadDatabase_NotGoose(t *testing.T) {
	fx.Invalid(t, "built-goose.sql", "ALTER TABLE sessions RENAME TO chats")
}

// TestMatch_OnlyTheSessionsDatabase: the database and its -wal are one
// file; a backup, a legacy session's .jsonl or another folder's
// sessions.db is not it.
func TestMatch_OnlyTheSessionsDatabase(t *testing.T) {
	root := "/home/u/.local/share/goose"
	a := New(Options{DataDir: root})
	db := root + "/sessions/sessions.db"
	for path, want := range map[string]bool{
		db: true, db + "-wal": true, db + "-shm": false,
		root + "/sessions/20250101_1.jsonl": false, root + "/backups/sessions.db": false,
		root + "/sessions.db": false, root + "/sessions/old/sessions.db": false,
	} {
		fi, ok := a.Match(root, path)
		if ok != want || ok && (fi.Path != db || fi.Layout != tally.LayoutDatabase) {
			t.Errorf("Match(%s) = %+v, %v; want %v", path, fi, ok, want)
		}
	}
	for dir, skip := range map[string]bool{root: false, root + "/sessions": false, root + "/backups": true, root + "/logs": true} {
		if got := a.SkipDir(root, dir); got != skip {
			t.Errorf("SkipDir(%s) = %v, want %v", dir, got, skip)
		}
	}
}
