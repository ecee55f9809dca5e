package crush

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// TestRuntime_theToolPartsOfALiveSessionAreItsRuntimeProgress: a
// tool_call part is a call of the session's runtime list, finished by the
// tool_result that names it (is_error: failed), one with no result still
// running; parts laid out as Crush marshals them (partWrapper).
func TestRuntime_theToolPartsOfALiveSessionAreItsRuntimeProgress(t *testing.T) {
	path, w := buildDB(t, "built-crush.sql")
	if _, err := w.Exec(`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES
		('t1', ?, 'assistant', '[{"type":"text","data":{"text":"Checking"}},{"type":"tool_call","data":{"id":"c1","name":"bash","input":"{\"command\":\"go test ./...\"}","finished":true}},{"type":"tool_call","data":{"id":"c2","name":"edit","input":"{\"file_path\":\"/src/api.go\"}","finished":true}}]', 1767610100, 1767610100),
		('t2', ?, 'tool', '[{"type":"tool_result","data":{"tool_call_id":"c1","name":"bash","content":"FAIL","is_error":true}},{"type":"tool_result","data":{"tool_call_id":"c2","name":"edit","content":"ok","is_error":false}}]', 1767610101, 1767610101),
		('t3', ?, 'assistant', '[{"type":"tool_call","data":{"id":"c3","name":"view","input":"{\"file_path\":\"/src/api_test.go\"}","finished":true}}]', 1767610102, 1767610102)`,
		build, build, build); err != nil {
		t.Fatal(err)
	}
	st := fold(build, sessions(t, path)[build])
	rec := tally.Merge([]*tally.FileState{st})
	s := rec.Session(time.Now())
	want := tally.RuntimeProgress{Calls: 3, Failed: 1, Running: 1, Current: "Reading api_test.go", Last: "Reading api_test.go"}
	if s.Runtime == nil || *s.Runtime != want {
		t.Errorf("runtime %+v, want %+v", s.Runtime, want)
	}
	if st.Lists[""] != nil {
		t.Errorf("the calls made a list of the model's: %+v", st.Lists[""])
	}
}
