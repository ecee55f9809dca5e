package hermes

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// TestSessions_BadRows damages messages the way a crash mid-write or a
// buggy tool would: each unusable row is reported with its table, row id,
// session and what was wrong, and every session still reads.
func TestSessions_BadRows(t *testing.T) {
	path, w := buildDB(t, "built-state-later.sql")
	if _, err := w.Exec(`INSERT INTO sessions (id, source, started_at) VALUES ('bad01', 'cli', 1772359000.0);
		INSERT INTO messages (id, session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		(101, 'bad01', 'assistant', NULL, NULL, '[{"id": "call_b1", "function": {"name": "todo", ', NULL, 1772359001.0),
		(102, 'bad01', 'assistant', NULL, NULL, '[{"id": "call_b2", "type": "function", "function": {"name": "todo", "arguments": "{\"todos\": [{\"id\": \"1\", \"content\": \"Fix it\", \"status\": \"in_progress\"}]}"}}]', NULL, 1772359002.0),
		(103, 'bad01', 'tool', '{"todos": [{"id": "1", "con', 'call_b2', NULL, 'todo', 1772359003.0),
		(104, 'bad01', 'assistant', NULL, NULL, '[{"id": "call_b3", "type": "function", "function": {"name": "todo", "arguments": "{\"todos\": 42"}}]', NULL, 1772359004.0)`); err != nil {
		t.Fatal(err)
	}
	all, diags := readDB(t, path)

	want := []struct {
		row  int64
		text []string
	}{
		{101, []string{"messages row 101 (session bad01)", "tool_calls is not a JSON list", "skipped"}},
		{103, []string{"messages row 103 (session bad01)", "result of todo call call_b2 is not a todo list", "arguments are used instead"}},
		{104, []string{"messages row 104 (session bad01)", "todo call call_b3", "arguments cannot be read", "skipped"}},
	}
	if len(diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d: %v", len(diags), len(want), diags)
	}
	for i, w := range want {
		d := diags[i]
		if d.Path != path || d.Offset != w.row {
			t.Errorf("diagnostic %d at %s:%d, want %s:%d", i, d.Path, d.Offset, path, w.row)
		}
		for _, s := range w.text {
			if !strings.Contains(d.Msg, s) {
				t.Errorf("diagnostic %d %q does not say %q", i, d.Msg, s)
			}
		}
	}

	// The damaged session keeps what could be read: call_b2's arguments.
	if got, want := items(fold("bad01", all["bad01"])), []tally.Item{todo("1", "Fix it", tally.StatusInProgress)}; !reflect.DeepEqual(got, want) {
		t.Errorf("damaged session's list = %+v, want %+v", got, want)
	}
	if got := items(fold("s", all["20260301_090000_feed01"])); len(got) != 4 {
		t.Errorf("the sound session lost its list: %+v", got)
	}
}
