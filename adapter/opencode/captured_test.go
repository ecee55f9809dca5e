package opencode

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/opencodedb/opencodedbtest"
)

// captured is the real OpenCode 1.18.33 run (see the captures' README).
const captured = "../../testdata/fixtures/captured/opencode-1.18.33/todowrite"

// TestList_isOpenCode1_18sOwnTodoTable: on the real capture the list Tally
// shows is the session's rows of OpenCode's todo table, in position order —
// the list OpenCode keeps — and what the last todowrite returned (its
// metadata.todos in `opencode run --format json`), its cancelled item
// included; its runtime list is the session's tool parts.
func TestList_isOpenCode1_18sOwnTodoTable(t *testing.T) {
	db := filepath.Join(captured, "opencode_data", dbName)
	c := opencodedbtest.Capture{Agent: "OpenCode", Dir: captured, DB: db}
	c.CheckTodoTable(t, sessions(t, db), fold, func(id string, st *tally.FileState, conn *sql.DB) {
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
	})
}
