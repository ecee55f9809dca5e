package opencode

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
)

// captured is the real OpenCode 1.18.33 run (see the captures' README).
const captured = "../../testdata/fixtures/captured/opencode-1.18.33/todowrite"

// stored is an item in OpenCode's own words.
type stored struct{ Content, Status string }

// TestList_isOpenCode1_18sOwnTodoTable: on the real capture the list Tally
// shows is the session's rows of OpenCode's todo table, in position order —
// the list OpenCode keeps — and what the last todowrite returned (its
// metadata.todos in `opencode run --format json`), its cancelled item
// included; its runtime list is the session's tool parts.
func TestList_isOpenCode1_18sOwnTodoTable(t *testing.T) {
	db := filepath.Join(captured, "opencode_data", dbName)
	all := sessions(t, db)
	if len(all) != 1 {
		t.Fatalf("%d sessions, want the capture's one", len(all))
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for id, evs := range all {
		var want []stored
		rows, err := conn.Query(`SELECT content, status FROM todo WHERE session_id = ? ORDER BY position`, id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var w stored
			if err := rows.Scan(&w.Content, &w.Status); err != nil {
				t.Fatal(err)
			}
			want = append(want, w)
		}
		rows.Close()
		st := fold(id, evs)
		var got []stored
		for _, it := range agentdbtest.List(st, "") {
			got = append(got, stored{it.Title, it.StatusWord()})
		}
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("session %s: list %v, OpenCode's todo table %v", id, got, want)
		}
		if last := lastTodowrite(t); !reflect.DeepEqual(got, last) {
			t.Errorf("session %s: list %v, the last todowrite's result %v", id, got, last)
		}
		// The runtime list is the session's tool parts, as OpenCode stored them.
		var calls, failed int
		if err := conn.QueryRow(`SELECT count(*), count(CASE WHEN json_extract(data, '$.state.status') = 'error' THEN 1 END)
			FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'tool'`, id).Scan(&calls, &failed); err != nil {
			t.Fatal(err)
		}
		rec := tally.Merge([]*tally.FileState{st})
		s := rec.Session(time.Now())
		if s.Runtime == nil || calls == 0 || s.Runtime.Calls != calls || s.Runtime.Failed != failed || s.Runtime.Running != 0 {
			t.Errorf("session %s: runtime %+v, OpenCode's part table %d tool calls, %d failed", id, s.Runtime, calls, failed)
		}
		if st.Title != "Greet helper with test and README" || st.Project != "/tmp/capture23d/opencode/todowrite/work" || st.Signal != tally.SignalWaiting {
			t.Errorf("title %q, project %q, signal %v", st.Title, st.Project, st.Signal)
		}
	}
}

func lastTodowrite(t *testing.T) []stored {
	f, err := os.Open(filepath.Join(captured, "json.stdout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last []stored
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var l struct {
			Type string
			Part struct {
				Tool  string
				State struct{ Metadata struct{ Todos []stored } }
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
