package opencodedbtest

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Todo is an item in the agent's own words: a row of its todo table, an
// entry of a todowrite's metadata.todos.
type Todo struct{ Content, Status string }

// Capture is one real run of an agent of OpenCode's schema.
type Capture struct {
	// Agent names the agent in failure messages: "OpenCode", "Kilo".
	Agent string
	// Dir is the capture's folder, holding the agent's
	// `run --format json` output as json.stdout.jsonl.
	Dir string
	// DB is the path of the capture's database.
	DB string
}

// CheckTodoTable checks all, the capture's one session read from c.DB,
// folded by fold: its list is the session's rows of the todo table, in
// position order — the list the agent keeps — and what the last todowrite
// returned. each then makes the test's own checks of the folded session,
// with a read-only connection to the database.
func (c Capture) CheckTodoTable(t *testing.T, all map[string][]tally.Event, fold func(id string, evs []tally.Event) *tally.FileState, each func(id string, st *tally.FileState, conn *sql.DB)) {
	t.Helper()
	if len(all) != 1 {
		t.Fatalf("%d sessions, want the capture's one", len(all))
	}
	conn, err := sql.Open("sqlite", "file:"+c.DB+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for id, evs := range all {
		var want []Todo
		rows, err := conn.Query(`SELECT content, status FROM todo WHERE session_id = ? ORDER BY position`, id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var w Todo
			if err := rows.Scan(&w.Content, &w.Status); err != nil {
				t.Fatal(err)
			}
			want = append(want, w)
		}
		rows.Close()
		st := fold(id, evs)
		var got []Todo
		for _, it := range agentdbtest.List(st, "") {
			got = append(got, Todo{it.Title, it.StatusWord()})
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("session %s: list %v, %s's todo table %v", id, got, c.Agent, want)
		}
		if last := c.LastTodowrite(t); !reflect.DeepEqual(got, last) {
			t.Errorf("session %s: list %v, the last todowrite's result %v", id, got, last)
		}
		each(id, st, conn)
	}
}

// LastTodowrite is what the capture's last todowrite returned: its
// metadata.todos in the agent's JSON output.
func (c Capture) LastTodowrite(t *testing.T) []Todo {
	t.Helper()
	f, err := os.Open(filepath.Join(c.Dir, "json.stdout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last []Todo
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var l struct {
			Type string
			Part struct {
				Tool  string
				State struct{ Metadata struct{ Todos []Todo } }
			}
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "tool_use" && l.Part.Tool == "todowrite" {
			last = l.Part.State.Metadata.Todos
		}
	}
	if last == nil {
		t.Fatal("no todowrite in the capture's output")
	}
	return last
}
