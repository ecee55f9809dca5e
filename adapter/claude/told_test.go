package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// hookRec is the hooks' recording of the real Claude Code 2.1.330: the
// PostToolUse payloads of each list call, and the transcript written.
const hookRec = "../../hook/testdata/claude-2.1.330"

type toldPayload struct {
	ToolName     string          `json:"tool_name"`
	ToolUseID    string          `json:"tool_use_id"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
}

func readTold(t *testing.T, path string) toldPayload {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p toldPayload
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The calls a PostToolUse hook is told of (TodoWrite, TaskCreate,
// TaskUpdate), applied in the order Claude Code made them, give the list
// its own transcript folds to: a hook that runs before Claude Code writes
// the call knows the list all the same.
func TestTold_givesTheListTheTranscriptGives(t *testing.T) {
	for session, payloads := range map[string][]string{
		"todo": {"PostToolUse-TodoWrite.json", "PostToolUse-TodoWrite-2.json"},
		"tasks": {"PostToolUse-TaskCreate.json", "PostToolUse-TaskCreate-2.json", "PostToolUse-TaskCreate-3.json",
			"PostToolUse-TaskUpdate.json", "PostToolUse-TaskUpdate-2.json", "PostToolUse-TaskUpdate-3.json", "PostToolUse-TaskUpdate-4.json"},
	} {
		t.Run(session, func(t *testing.T) {
			a := New(Options{ConfigDir: t.TempDir()})
			var told tally.List
			for _, name := range payloads {
				p := readTold(t, filepath.Join(hookRec, session, "payloads", name))
				evs, err := a.Told(p.ToolName, p.ToolUseID, p.ToolInput, p.ToolResponse, time.Date(2026, 11, 23, 16, 48, 0, 0, time.UTC))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(evs) == 0 {
					t.Fatalf("%s: no event", name)
				}
				for _, ev := range evs {
					told.Apply(ev)
				}
			}
			path := filepath.Join(hookRec, session, "transcript.jsonl")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dec, err := a.NewDecoder(tally.FileInfo{Path: path}, nil)
			if err != nil {
				t.Fatal(err)
			}
			st := &tally.FileState{Path: path}
			st.Feed(dec, data)
			want := st.Lists[""].Items()
			got := told.Items()
			if !reflect.DeepEqual(strip(got), strip(want)) {
				t.Errorf("told:\n%+v\ntranscript:\n%+v", got, want)
			}
			// Once the transcript holds the calls, its list knows it saw
			// each: the hook then forgets what it was told.
			for _, name := range payloads {
				p := readTold(t, filepath.Join(hookRec, session, "payloads", name))
				evs, _ := a.Told(p.ToolName, p.ToolUseID, p.ToolInput, p.ToolResponse, time.Now())
				for _, ev := range evs {
					if !st.Lists[""].Saw(ev) {
						t.Errorf("%s: the transcript's list does not know it saw %v %s", name, ev.Kind, ev.ToolUseID)
					}
				}
			}
		})
	}
}

// strip keeps what a list shows of an item: the times differ (the hook's
// clock, the transcript's).
func strip(items []tally.Item) []tally.Item {
	out := make([]tally.Item, len(items))
	for i, it := range items {
		out[i] = tally.Item{ID: it.ID, Title: it.Title, Status: it.Status, RawStatus: it.RawStatus, ActiveForm: it.ActiveForm,
			BlockedBy: it.BlockedBy, Blocks: it.Blocks, Source: it.Source}
	}
	return out
}

// A tool the decoder does not read gives nothing; input that is not
// JSON, or a call without an id, is an error.
func TestTold_otherToolsAndBadInput(t *testing.T) {
	a := New(Options{})
	if evs, err := a.Told("Write", "toolu_1", json.RawMessage(`{"file_path":"a"}`), nil, time.Now()); err != nil || len(evs) != 0 {
		t.Errorf("Write: %v %v", evs, err)
	}
	if _, err := a.Told("TodoWrite", "", json.RawMessage(`{}`), nil, time.Now()); err == nil {
		t.Error("no tool_use_id: no error")
	}
	if _, err := a.Told("TodoWrite", "toolu_1", json.RawMessage(`{`), nil, time.Now()); err == nil {
		t.Error("input not JSON: no error")
	}
}

func FuzzTold(f *testing.F) {
	f.Add("TodoWrite", "toolu_1", `{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}`, `{"oldTodos":[],"newTodos":[]}`)
	f.Add("TaskCreate", "toolu_2", `{"subject":"a","description":"b"}`, `{"task":{"id":"1","subject":"a"}}`)
	f.Add("TaskUpdate", "toolu_3", `{"taskId":"1","status":"completed"}`, `{"success":true}`)
	f.Add("TaskUpdate", "toolu_\"4", `{"taskId":1,"status":[]}`, `"text"`)
	a := New(Options{})
	f.Fuzz(func(t *testing.T, tool, id, input, response string) {
		evs, err := a.Told(tool, id, json.RawMessage(input), json.RawMessage(response), time.Unix(0, 0))
		if err != nil && len(evs) > 0 {
			t.Fatal("events with an error")
		}
		var l tally.List
		for _, ev := range evs {
			l.Apply(ev)
		}
	})
}
