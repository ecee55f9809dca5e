package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// TestDecoder_aFailedTaskCallChangesNothing folds a Claude Code 2.1.330
// capture whose TaskCreate and TaskUpdate calls partly fail
// (InputValidationError, tool_result is_error; a TaskUpdate of a task
// that does not exist, success false): the list is, before every model
// request and at the end, what the agent's own task files say — no task
// without an id from a create that failed, no status or deletion from an
// update that failed.
func TestDecoder_aFailedTaskCallChangesNothing(t *testing.T) {
	dir := filepath.Join(captured, "tasks-failed-calls")
	mains, _ := filepath.Glob(filepath.Join(dir, "config/projects/*/*.jsonl"))
	if len(mains) != 1 {
		t.Fatalf("want one transcript, got %v", mains)
	}
	sid := filepath.Base(mains[0])
	sid = sid[:len(sid)-len(".jsonl")]
	atExit := readTaskDir(t, filepath.Join(dir, "config/tasks", sid))
	for _, p := range []string{mains[0], filepath.Join(dir, "stream-json.stdout.jsonl")} {
		fo := newFolder(t, tally.FileInfo{Path: p, Session: sid})
		requests, failed := 0, 0
		for _, l := range adaptertest.Lines(read(t, p)) {
			var env rawLine
			_ = json.Unmarshal(l, &env)
			if env.Type == "api-request" {
				requests++
				snap := filepath.Join(dir, "harness/snapshots", fmt.Sprintf("%03d", requests), "tasks", sid)
				want := []taskView(nil)
				if _, err := os.Stat(snap); err == nil {
					want = readTaskDir(t, snap)
				}
				if got := taskViews(fo.List(""), nil); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: before request %d\n got %+v\nwant (the agent's task files) %+v", filepath.Base(p), requests, got, want)
				}
			}
			if env.Type == "user" {
				var bs []struct {
					IsError bool `json:"is_error"`
				}
				_ = json.Unmarshal(env.Message.Content, &bs)
				for _, b := range bs {
					if b.IsError {
						failed++
					}
				}
			}
			fo.Feed(l)
		}
		if failed < 4 {
			t.Fatalf("%s: only %d failed calls: fixture changed?", filepath.Base(p), failed)
		}
		if got := taskViews(fo.List(""), nil); !reflect.DeepEqual(got, atExit) {
			t.Errorf("%s: final list\n got %+v\nwant (task files at exit) %+v", filepath.Base(p), got, atExit)
		}
		if len(fo.Diags) > 0 {
			t.Errorf("%s: unexpected diagnostics %v", filepath.Base(p), fo.Diags)
		}
	}
}

// TestDecoder_aFailedTodoWriteChangesNothing folds a capture whose last
// TodoWrite failed (InputValidationError: status "done"): the list stays
// the one the last successful call set, as its toolUseResult.newTodos
// states it.
func TestDecoder_aFailedTodoWriteChangesNothing(t *testing.T) {
	dir := filepath.Join(captured, "todowrite-failed-call")
	mains, _ := filepath.Glob(filepath.Join(dir, "config/projects/*/*.jsonl"))
	if len(mains) != 1 {
		t.Fatalf("want one transcript, got %v", mains)
	}
	for _, p := range []string{mains[0], filepath.Join(dir, "stream-json.stdout.jsonl")} {
		fo := newFolder(t, tally.FileInfo{Path: p})
		var want []tally.Item
		failed := 0
		for _, l := range adaptertest.Lines(read(t, p)) {
			fo.Feed(l)
			var env rawLine
			if json.Unmarshal(l, &env) != nil || env.Type != "user" {
				continue
			}
			var r struct{ NewTodos *[]rawTodo }
			if json.Unmarshal(env.result(), &r) == nil && r.NewTodos != nil {
				want = wantTodos(*r.NewTodos)
			}
			var bs []struct {
				IsError bool `json:"is_error"`
			}
			_ = json.Unmarshal(env.Message.Content, &bs)
			for _, b := range bs {
				if b.IsError {
					failed++
					if got := fo.List(""); !reflect.DeepEqual(got, want) {
						t.Errorf("%s: after a failed call\n got %+v\nwant (the last newTodos) %+v", filepath.Base(p), got, want)
					}
				}
			}
		}
		if failed != 1 || want == nil {
			t.Fatalf("%s: %d failed calls, newTodos %v: fixture changed?", filepath.Base(p), failed, want)
		}
		if got := fo.List(""); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: final list\n got %+v\nwant %+v", filepath.Base(p), got, want)
		}
	}
}

// TestDecoder_aRepairedCreateIsWhatClaudeCodeSaved folds a capture whose
// TaskCreate calls Claude Code 2.1.330 repaired before running them (a
// "title" for the subject, no subject — taken from the description — and
// no description — taken from the subject): the tasks are what its result
// says it saved, as its task files do, not the call's input.
func TestDecoder_aRepairedCreateIsWhatClaudeCodeSaved(t *testing.T) {
	dir := filepath.Join(captured, "tasks-repaired-calls")
	mains, _ := filepath.Glob(filepath.Join(dir, "config/projects/*/*.jsonl"))
	if len(mains) != 1 {
		t.Fatalf("want one transcript, got %v", mains)
	}
	sid := filepath.Base(mains[0])
	sid = sid[:len(sid)-len(".jsonl")]
	atExit := readTaskDir(t, filepath.Join(dir, "config/tasks", sid))
	for _, p := range []string{mains[0], filepath.Join(dir, "stream-json.stdout.jsonl")} {
		st := foldAll(t, tally.FileInfo{Path: p, Session: sid}, read(t, p))
		if got := taskViews(st.Lists[""].Items(), nil); !reflect.DeepEqual(got, atExit) {
			t.Errorf("%s: final list\n got %+v\nwant (task files at exit) %+v", filepath.Base(p), got, atExit)
		}
	}
}

// A failed result written with spaces (as a hand-made line may be) is
// still read as failed: only a line that cannot say so is settled unread.
func TestDecoder_aFailedResultIsReadHoweverItIsSpaced(t *testing.T) {
	lines := `{"type":"assistant","timestamp":"2026-11-22T10:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"a","status":"pending"}]}}]}}
{"type":"user","timestamp":"2026-11-22T10:00:01Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}
{"type":"assistant","timestamp":"2026-11-22T10:00:02Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"TodoWrite","input":{"todos":[{"content":"b","status":"pending"}]}}]}}
{"type":"user","timestamp":"2026-11-22T10:00:03Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","is_error": true,"content":"InputValidationError"}]}}
`
	st := foldAll(t, tally.FileInfo{Path: "spaced.jsonl"}, []byte(lines))
	if items := st.Lists[""].Items(); len(items) != 1 || items[0].Title != "a" {
		t.Errorf("items %+v, want the list of the call that succeeded", items)
	}
	if n := len(st.Lists[""].Undo); n != 0 {
		t.Errorf("%d calls still awaited", n)
	}
}
