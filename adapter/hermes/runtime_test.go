package hermes

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// TestRuntime_recentToolCallsAreTheConversationsRuntimeProgress: the tool
// calls of the newest rows are calls of the runtime list, finished by the
// tool rows answering them (an error: failed), one unanswered still
// running; OpenAI's arguments, a JSON string, give the label.
func TestRuntime_recentToolCallsAreTheConversationsRuntimeProgress(t *testing.T) {
	path, w := buildDB(t, "built-state-v2.sql")
	const id = "20260106_090000_live01"
	if _, err := w.Exec(`INSERT INTO sessions (id, source, model, started_at) VALUES (?, 'cli', 'm', 1767690000.0);
		INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		(?, 'user', 'Fix the build', NULL, NULL, NULL, 1767690001.0),
		(?, 'assistant', '', NULL, '[{"id": "t1", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"make test\"}"}}, {"id": "t2", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"/src/Makefile\"}"}}]', NULL, 1767690002.0),
		(?, 'tool', '{"error": "exit status 2"}', 't1', NULL, 'terminal', 1767690003.0)`, id, id, id, id); err != nil {
		t.Fatal(err)
	}
	st := fold(id, sessions(t, path)[id])
	rec := tally.Merge([]*tally.FileState{st})
	s := rec.Session(time.Now())
	want := tally.RuntimeProgress{Calls: 2, Failed: 1, Running: 1, Current: "Reading Makefile", Last: "Reading Makefile"}
	if s.Runtime == nil || *s.Runtime != want {
		t.Errorf("runtime %+v, want %+v", s.Runtime, want)
	}
}
