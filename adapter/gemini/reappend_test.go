package gemini

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// Gemini CLI writes a message again whenever it learns more of it
// (recordToolCalls merges a call into the last message by call id, then
// appends the whole message), and its loader keeps the last copy of each id
// whole. So a message appended again replaces the earlier one, its
// write_todos arguments included, even under the same call id.
func TestChat_ReappendedMessageReplacesItsCallWhole(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(captured, "write-todos", "gemini_home/tmp/*/chats/session-*.jsonl"))
	if len(paths) != 1 {
		t.Fatalf("capture: %v", paths)
	}
	lines := adaptertest.Lines(read(t, paths[0]))
	// The last message holding a write_todos call, as the CLI wrote it.
	var last []byte
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte(`{"id":`)) && bytes.Contains(l, []byte(`"toolCalls":[{"id":"write_todos`)) {
			last = l
		}
	}
	var m map[string]any
	if err := json.Unmarshal(last, &m); err != nil {
		t.Fatal(err)
	}
	// The same message and call id, the last todo now in progress.
	call := m["toolCalls"].([]any)[0].(map[string]any)
	for _, key := range []string{"args", "resultDisplay"} {
		todos := call[key].(map[string]any)["todos"].([]any)
		todos[len(todos)-1].(map[string]any)["status"] = "in_progress"
	}
	again, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var exp []want
	for _, td := range call["args"].(map[string]any)["todos"].([]any) {
		td := td.(map[string]any)
		exp = append(exp, want{td["description"].(string), td["status"].(string)})
	}

	f := newFolder(t, tally.FileInfo{Path: paths[0], Session: "s"})
	for _, l := range append(lines, again) {
		if d := f.Feed(l); len(d) > 0 {
			t.Fatalf("diagnostics: %v", d)
		}
	}
	sameItems(t, "after the message was appended again", f.List(""), exp)

	// Read in one go from the start, as a cold scan does, it agrees.
	var all bytes.Buffer
	for _, l := range append(lines, again) {
		all.Write(append(l, '\n'))
	}
	st := adaptertest.Fold(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: paths[0], Session: "s"}, all.Bytes(), 0)
	sameItems(t, "cold scan", st.Lists[""].Items(), exp)
}
