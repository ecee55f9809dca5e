package acp

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const geminiChat = "../../testdata/fixtures/captured/gemini-cli-0.61.0/acp-write-todos/gemini_home/tmp/work/chats/session-2026-11-22T14-06-975abe4f.jsonl"

// withContent is the capture's tool_call_update for a write_todos call,
// its (empty) content replaced by a text block.
func withContent(t *testing.T, callID, text string) []byte {
	t.Helper()
	for _, l := range adaptertest.Lines(read(t, geminiCapture)) {
		if !strings.Contains(string(l), `"tool_call_update","toolCallId":"`+callID+`"`) {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		m["params"].(map[string]any)["update"].(map[string]any)["content"] = []any{
			map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": text}},
		}
		b, _ := json.Marshal(m)
		return append(b, '\n')
	}
	t.Fatalf("no update for %s in the capture", callID)
	return nil
}

// A todo tool's call that carries its list in its content — as JSON, or
// as the text write_todos answers its model with — shows the items, not
// just "Set 3 todo(s)". The text is the one Gemini CLI recorded for the
// capture's first write_todos call.
func TestDecoder_listReadFromToolCallContent(t *testing.T) {
	var answer string
	for _, l := range adaptertest.Lines(read(t, geminiChat)) {
		var m struct {
			ToolCalls []struct {
				ID     string
				Result []struct {
					FunctionResponse struct{ Response struct{ Output string } }
				}
			}
		}
		if json.Unmarshal(l, &m) == nil && len(m.ToolCalls) > 0 && m.ToolCalls[0].ID == "write_todos__write_todos_1795356416759_0" {
			answer = m.ToolCalls[0].Result[0].FunctionResponse.Response.Output
		}
	}
	if !strings.HasPrefix(answer, "Successfully updated the todo list.") {
		t.Fatalf("the chat record's answer: %q", answer)
	}
	want := []shown{
		{"", "Write greet.py with greet(name)", tally.StatusInProgress},
		{"", "Add a unit test", tally.StatusPending},
		{"", "Update README", tally.StatusPending},
	}
	for name, text := range map[string]string{
		"write_todos' answer": answer,
		"JSON": `[{"content":"Write greet.py with greet(name)","status":"in_progress"},` +
			`{"content":"Add a unit test","status":"pending"},{"content":"Update README","status":"pending"}]`,
	} {
		t.Run(name, func(t *testing.T) {
			line := withContent(t, "write_todos__write_todos_1795356416759_0", text)
			st := adaptertest.Fold(t, New(), fi, line, 0)
			if got := listOf(st, ""); !reflect.DeepEqual(got, want) {
				t.Errorf("main list %+v, want %+v", got, want)
			}
		})
	}
	// Other text (a shell command's output) is no list.
	st := adaptertest.Fold(t, New(), fi, withContent(t, "write_todos__write_todos_1795356416759_0", "1. [x] not an answer"), 0)
	if got := listOf(st, ""); got != nil {
		t.Errorf("main list %+v from text that is no todo list", got)
	}
}

// Gemini CLI 0.61.0 carries no list over ACP at all, whatever the approval
// mode and with write_todos or the tracker: every such call comes with
// empty content and no rawInput (the captures acp-write-todos in default
// mode, acp-yolo-write-todos and acp-task-tracker in yolo mode). Only the
// runtime calls can show.
func TestDecoder_geminiSendsNoListOverACP(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/fixtures/captured/gemini-cli-0.61.0/acp-*/acp/agent-stdout.jsonl")
	if len(paths) != 3 {
		t.Fatalf("captures: %v", paths)
	}
	for _, p := range paths {
		st := adaptertest.Fold(t, New(), fi, read(t, p), 0)
		if got := listOf(st, ""); got != nil {
			t.Errorf("%s: main list %+v from a capture that carries none", p, got)
		}
		if len(listOf(st, tally.RuntimeList)) == 0 {
			t.Errorf("%s: no runtime calls", p)
		}
	}
}
