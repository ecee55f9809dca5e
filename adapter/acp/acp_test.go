package acp

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const geminiCapture = "../../testdata/fixtures/captured/gemini-cli-0.61.0/acp-write-todos/acp/agent-stdout.jsonl"

var fi = tally.FileInfo{Path: "stdin"}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAdapter_contract(t *testing.T) {
	for _, path := range []string{geminiCapture, "testdata/spec-examples.jsonl"} {
		t.Run(path, func(t *testing.T) { adaptertest.Run(t, New(), fi, read(t, path)) })
	}
}

type shown struct {
	ID, Title string
	Status    tally.Status
}

func listOf(st *tally.FileState, key string) []shown {
	var out []shown
	if l := st.Lists[key]; l != nil {
		for _, it := range l.Items() {
			out = append(out, shown{it.ID, it.Title, it.Status})
		}
	}
	return out
}

// The capture's own record: Gemini CLI 0.61.0 over ACP announces each tool
// call only inside session/request_permission (status pending) and then
// reports it completed with a tool_call_update; it sends no plan.
func TestDecoder_geminiCapture(t *testing.T) {
	st := adaptertest.Fold(t, New(), fi, read(t, geminiCapture), 0)
	if st.Session != "975abe4f-688c-4d96-b49e-e4e1c5265af5" {
		t.Errorf("session = %q", st.Session)
	}
	if got := listOf(st, ""); got != nil {
		t.Errorf("main list = %+v, want none: the capture has no plan and no rawInput", got)
	}
	want := []shown{
		{"write_todos__write_todos_1795356416759_0", "Set 3 todo(s)", tally.StatusCompleted},
		{"write_file__write_file_1795356416859_0", "Writing to greet.py", tally.StatusCompleted},
		{"write_todos__write_todos_1795356417124_0", "Set 3 todo(s)", tally.StatusCompleted},
		{"write_file__write_file_1795356417155_0", "Writing to test_greet.py", tally.StatusCompleted},
		{"write_todos__write_todos_1795356417181_0", "Set 4 todo(s)", tally.StatusCompleted},
		{"run_shell_command__run_shell_command_1795356417194_0", `python3 -c 'from greet import greet; print(greet("World"))'`, tally.StatusCompleted},
		{"write_todos__write_todos_1795356417421_0", "Set 4 todo(s)", tally.StatusCompleted},
	}
	if got := listOf(st, tally.RuntimeList); !reflect.DeepEqual(got, want) {
		t.Errorf("runtime list:\ngot  %+v\nwant %+v", got, want)
	}
	if st.Signal != tally.SignalWaiting {
		t.Errorf("signal = %v, want waiting: the last line ends the prompt turn (stopReason end_turn)", st.Signal)
	}
	if st.Stats.Malformed != 0 {
		t.Errorf("malformed = %d, want 0", st.Stats.Malformed)
	}
}

func TestDecoder_specExamples(t *testing.T) {
	st := adaptertest.Fold(t, New(), fi, read(t, "testdata/spec-examples.jsonl"), 0)
	wantPlan := []shown{
		{"", "Analyze the existing codebase structure", tally.StatusPending},
		{"", "Identify components that need refactoring", tally.StatusPending},
		{"", "Create unit tests for critical functions", tally.StatusPending},
	}
	if got := listOf(st, ""); !reflect.DeepEqual(got, wantPlan) {
		t.Errorf("plan:\ngot  %+v\nwant %+v", got, wantPlan)
	}
	if p := st.Lists[""].Items()[2].Priority; p != "medium" {
		t.Errorf("third entry priority = %q, want medium", p)
	}
	// tool_call announces call_001 pending; the update moves it along and
	// keeps the title it did not repeat.
	wantRuntime := []shown{{"call_001", "Reading configuration file", tally.StatusInProgress}}
	if got := listOf(st, tally.RuntimeList); !reflect.DeepEqual(got, wantRuntime) {
		t.Errorf("runtime:\ngot  %+v\nwant %+v", got, wantRuntime)
	}
}

func fold(t *testing.T, lines ...string) *tally.FileState {
	t.Helper()
	return adaptertest.Fold(t, New(), fi, []byte(strings.Join(lines, "\n")+"\n"), 0)
}

func TestDecoder_planReplacesAndKeepsUnknownWords(t *testing.T) {
	st := fold(t,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"},{"content":"b","priority":"low","status":"pending"}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"completed"},{"content":"","status":"pending"},{"content":"c","priority":"low","status":"skipped"}]}}}`,
	)
	items := st.Lists[""].Items()
	if len(items) != 2 || items[0].Status != tally.StatusCompleted || items[1].Title != "c" {
		t.Fatalf("items = %+v, want [a completed, c]: a plan replaces the last, blank entries are skipped", items)
	}
	if items[1].Status != tally.StatusUnknown || items[1].StatusWord() != "skipped" {
		t.Errorf("c: status %v word %q, want unknown with the agent's word kept", items[1].Status, items[1].StatusWord())
	}
}

func TestDecoder_rawInputTodosBecomeThePlan(t *testing.T) {
	call := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"w1","title":"Set 2 todo(s)","kind":"other","status":"pending","rawInput":{"todos":[{"description":"Write greet.py","status":"in_progress"},{"description":"Add a test","status":"cancelled"}]}}}}`
	st := fold(t, call, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"w1","status":"completed"}}}`)
	want := []shown{{"", "Write greet.py", tally.StatusInProgress}, {"", "Add a test", tally.StatusCancelled}}
	if got := listOf(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("main list %+v, want %+v", got, want)
	}
}

// TestDecoder_aFailedTodoCallChangesNothing: a call whose rawInput holds
// a list is shown when announced, and taken back when its update says it
// failed: the agent's tool changed nothing.
func TestDecoder_aFailedTodoCallChangesNothing(t *testing.T) {
	plan := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"w0","title":"Set 1 todo(s)","kind":"other","status":"completed","rawInput":{"todos":[{"description":"Write greet.py","status":"in_progress"}]}}}}`
	st := fold(t, plan,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"w1","title":"Set 2 todo(s)","kind":"other","status":"pending","rawInput":{"todos":[{"description":"Write greet.py","status":"completed"},{"description":"Add a test","status":"done"}]}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"w1","status":"failed"}}}`,
	)
	want := []shown{{"", "Write greet.py", tally.StatusInProgress}}
	if got := listOf(st, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("main list %+v, want %+v (the list before the failed call)", got, want)
	}
	if got := listOf(st, tally.RuntimeList); len(got) != 2 || got[1].Status != tally.StatusFailed {
		t.Errorf("runtime %+v, want the failed call shown as failed", got)
	}
}

func TestDecoder_markersAcrossChunks(t *testing.T) {
	chunk := func(s string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + s + `"}}}}`
	}
	lines := []string{
		chunk(`S1 and S2 are done.\n\nprogress: T001.S1 do`), chunk(`ne\nprogress: T001.S2 blocked: wait`), chunk(`ing for API key`),
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	}
	st := fold(t, lines...)
	// A marker is read from the line whose chunk completes it; one still
	// open when the message ends, from the line of its last chunk.
	second := int64(len(lines[0]) + 1)
	third := second + int64(len(lines[1])+1)
	want := []tally.Marker{{Task: "T001", Step: "S1", Verb: "done", Offset: second},
		{Task: "T001", Step: "S2", Verb: "blocked", Reason: "waiting for API key", Offset: third}}
	if !reflect.DeepEqual(st.Markers, want) {
		t.Errorf("markers %+v, want %+v", st.Markers, want)
	}
}

func TestDecoder_malformed(t *testing.T) {
	dec, _ := New().NewDecoder(fi, nil)
	for _, line := range []string{
		`{not json`, `[1,2]`, `{"id":1,"result":{}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"plan","entries":"x"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call","title":"no id"}}}`,
	} {
		err := dec.Line([]byte(line), 0, func(tally.Event) { t.Errorf("%s: emitted an event", line) })
		var te *tally.Error
		if !errors.As(err, &te) || te.Code != tally.CodeInvalid {
			t.Errorf("%s: err = %v, want CodeInvalid", line, err)
		}
	}
}

func TestAdapter_Sniff(t *testing.T) {
	a := New()
	first, _, _ := bytes.Cut(read(t, geminiCapture), []byte("\n"))
	if !a.Sniff(first) {
		t.Error("the capture's first line is not recognised")
	}
	for _, line := range []string{`{"type":"system","session_id":"x"}`, `{"jsonrpc":"1.0"}`, `jsonrpc`} {
		if a.Sniff([]byte(line)) {
			t.Errorf("Sniff(%s) = true", line)
		}
	}
}

func FuzzDecoder(f *testing.F) {
	adaptertest.Fuzz(f, New(), fi, read(f, geminiCapture), read(f, "testdata/spec-examples.jsonl"))
}

func BenchmarkDecoder(b *testing.B) {
	data := read(b, geminiCapture)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		adaptertest.Fold(b, New(), fi, data, 0)
	}
}

func TestDecoder_toolCallsAndPermission(t *testing.T) {
	call := func(id, title string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"` + title + `","kind":"execute","status":"pending","rawInput":{"command":"ls"}}}}`
	}
	update := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}}`
	ask := `{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c3","title":"Run rm"},"options":[]}}`
	dec, err := New().NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	var fps []uint64
	st := &tally.FileState{}
	for _, l := range []string{call("c1", "Run ls"), update, call("c2", "Run ls"), call("c3", "Run rm"), ask} {
		_ = dec.Line([]byte(l), 0, func(ev tally.Event) {
			st.Apply(ev)
			if ev.Kind == tally.EventToolCall {
				fps = append(fps, ev.Call)
			}
		})
	}
	if len(fps) != 3 || fps[0] != fps[1] || fps[2] == fps[0] {
		t.Errorf("fingerprints %x: want one per tool_call (not per update), the same call twice, then another", fps)
	}
	if st.Signal != tally.SignalAsking {
		t.Errorf("signal %v after a permission request, want asking", st.Signal)
	}
}
