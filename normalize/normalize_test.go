package normalize

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/tail"
)

func run(t *testing.T, input, agent string) (out, errOut string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = Run(context.Background(), strings.NewReader(input), &o, &e, Options{Agent: agent, Adapters: adapters(), Now: fixedNow})
	return o.String(), e.String(), err
}

const (
	codexList1 = `{"type":"item.started","item":{"id":"item_1","type":"todo_list","items":[{"text":"a","completed":false}]}}`
	codexList2 = `{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[{"text":"a","completed":true}]}}`
	codexEmpty = `{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[]}}`
)

func decode(t *testing.T, out string) []TodoList {
	t.Helper()
	var evs []TodoList
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev TodoList
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func TestRun_malformedLinesAreReportedAndSkipped(t *testing.T) {
	in := strings.Join([]string{`{"type":"thread.started","thread_id":"t1"}`, `{"type":`, codexList1, "\xff\xfe", codexList2}, "\n")
	out, errOut, err := run(t, in, "codex")
	if err != nil {
		t.Fatal(err)
	}
	evs := decode(t, out)
	if len(evs) != 2 || evs[1].Items[0].Status != TodoCompleted {
		t.Errorf("events %+v, want the two lists around the bad lines", evs)
	}
	for _, want := range []string{"line 2: ", "line 4: ", "2 of 5 lines skipped"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
}

// hugeLine yields n bytes of one line, then a newline and tail, without
// ever holding the line.
type hugeLine struct {
	n    int64
	tail *strings.Reader
}

func (h *hugeLine) Read(p []byte) (int, error) {
	if h.n > 0 {
		k := int(min(int64(len(p)), h.n))
		for i := range p[:k] {
			p[i] = 'x'
		}
		h.n -= int64(k)
		return k, nil
	}
	return h.tail.Read(p)
}

func TestRun_a100MBLineIsSkippedInBoundedMemory(t *testing.T) {
	in := &hugeLine{n: 100 << 20, tail: strings.NewReader("\n" + codexList1 + "\n")}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var o, e bytes.Buffer
	err := Run(context.Background(), in, &o, &e, Options{Agent: "codex", Adapters: adapters(), Now: fixedNow})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.String(), "line 1: line of 104857601 bytes is over the line limit; skipped") {
		t.Errorf("stderr %q does not report the skipped line", e.String())
	}
	if evs := decode(t, o.String()); len(evs) != 1 || evs[0].Line != 2 {
		t.Errorf("events %+v, want the list of line 2", evs)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 3*tail.MaxLine {
		t.Errorf("allocated %d MB for a 100 MB line; the limit is %d MB", grew>>20, tail.MaxLine>>20)
	}
}

func TestRun_autoDetection(t *testing.T) {
	t.Run("unknown format", func(t *testing.T) {
		_, _, err := run(t, "hello\nworld\n", AgentAuto)
		if tally.ErrorCode(err) != tally.CodeInvalid || !strings.Contains(err.Error(), "--agent") {
			t.Errorf("err = %v, want CodeInvalid naming --agent", err)
		}
	})
	t.Run("unknown agent", func(t *testing.T) {
		_, _, err := run(t, codexList1, "aider")
		if tally.ErrorCode(err) != tally.CodeInvalid {
			t.Errorf("err = %v, want CodeInvalid", err)
		}
	})
	t.Run("text before the first JSON line", func(t *testing.T) {
		out, _, err := run(t, "Reading prompt from stdin...\n"+codexList1+"\n", AgentAuto)
		if err != nil || len(decode(t, out)) != 1 {
			t.Errorf("out %q err %v, want one list", out, err)
		}
	})
	t.Run("empty input", func(t *testing.T) {
		out, _, err := run(t, "", AgentAuto)
		if err != nil || out != "" {
			t.Errorf("out %q err %v, want nothing", out, err)
		}
	})
}

func TestRun_todoIDStartsAnewAfterAnEmptyList(t *testing.T) {
	out, _, err := run(t, strings.Join([]string{`{"type":"thread.started","thread_id":"t1"}`, codexList1, codexEmpty, codexList1}, "\n"), "codex")
	if err != nil {
		t.Fatal(err)
	}
	evs := decode(t, out)
	var ids []string
	for _, ev := range evs {
		ids = append(ids, ev.TodoID)
	}
	want := []string{"t1/main#1", "t1/main#1", "t1/main#2"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("todoIds %v, want %v: the empty list clears, the next one is new", ids, want)
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for _, ev := range evs {
		if !uuid.MatchString(ev.EventID) || seen[ev.EventID] {
			t.Errorf("eventId %q: want a distinct version-5 UUID", ev.EventID)
		}
		seen[ev.EventID] = true
	}
}

func TestTodoStatusOf(t *testing.T) {
	for s, want := range map[tally.Status]TodoStatus{
		tally.StatusPending: TodoPending, tally.StatusInProgress: TodoInProgress, tally.StatusCompleted: TodoCompleted,
		tally.StatusCancelled: TodoCancelled, tally.StatusFailed: TodoCancelled, tally.StatusBlocked: TodoPending,
		tally.StatusUnknown: TodoPending,
	} {
		if got := TodoStatusOf(s); got != want {
			t.Errorf("TodoStatusOf(%v) = %v, want %v", s, got, want)
		}
	}
}

func TestRun_statusOutsideTheFourWordsKeepsTallysWord(t *testing.T) {
	in := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"on_hold"}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run tests","status":"failed"}}}`
	out, _, err := run(t, in, "acp")
	if err != nil {
		t.Fatal(err)
	}
	evs := decode(t, out)
	if len(evs) != 2 {
		t.Fatalf("events %+v", evs)
	}
	if it := evs[0].Items[0]; it.Status != TodoPending || it.TallyStatus != "on_hold" {
		t.Errorf("unknown word: %+v, want pending with tallyStatus on_hold", it)
	}
	if it := evs[1].Items[0]; evs[1].List != "runtime" || it.Status != TodoCancelled || it.TallyStatus != "failed" {
		t.Errorf("failed call: list %q %+v, want runtime, cancelled with tallyStatus failed", evs[1].List, it)
	}
}

func BenchmarkRun_claudeTasks(b *testing.B) {
	data, err := io.ReadAll(must(b, "claude-code-2.1.330/tasks/stream-json.stdout.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := Run(context.Background(), bytes.NewReader(data), io.Discard, io.Discard, Options{Agent: AgentAuto, Adapters: adapters(), Now: fixedNow}); err != nil {
			b.Fatal(err)
		}
	}
}

// An item without text is neither written nor counted in progress.total:
// the fold skips it, for every surface alike.
func TestRun_itemWithoutTextIsNotCounted(t *testing.T) {
	const line = `{"type":"assistant","sessionId":"s","timestamp":"2026-11-22T10:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_b","name":"TodoWrite","input":{"todos":[` +
		`{"content":"Write greet.py","status":"completed","activeForm":"Writing greet.py"},` +
		`{"content":"  ","status":"pending","activeForm":""}]}}]}}`
	out, _, err := run(t, line+"\n", "claude")
	if err != nil {
		t.Fatal(err)
	}
	evs := decode(t, out)
	if len(evs) != 1 || len(evs[0].Items) != 1 || evs[0].Progress.Total != 1 || evs[0].Progress.Done != 1 {
		t.Errorf("events %+v, want one item, 1/1", evs)
	}
}

// A sub-agent's todo_list events carry its name beside its id.
func TestRun_subAgentListCarriesItsName(t *testing.T) {
	out, _ := normalizeFile(t, "../testdata/fixtures/captured/claude-code-2.1.330/todowrite-subagent/stream-json.stdout.jsonl", "claude")
	named := 0
	for _, ev := range decode(t, string(out)) {
		if ev.List == "" {
			continue
		}
		if ev.Name != "Audit string helpers" {
			t.Errorf("sub-agent %s event named %q", ev.List, ev.Name)
		}
		named++
	}
	if named == 0 {
		t.Error("no sub-agent list in the output")
	}
}

// Gemini's task tracker in stream-json: the stream holds neither the
// tasks' ids nor the list, and printed nothing. With Gemini CLI's home
// known (as tally normalize and follow have it), the tracker's own files
// give the list the index shows, 1 of 4 done; without it, the tasks the
// stream saw created still print.
func TestRun_geminiTrackerStreamPrintsItsTasks(t *testing.T) {
	const dir = "../testdata/fixtures/captured/gemini-cli-0.61.0/task-tracker/"
	for _, c := range []struct {
		home        string
		done, total int
	}{
		{dir + "gemini_home", 1, 4},
		{t.TempDir(), 0, 4},
	} {
		in, err := os.Open(dir + "stream-json.stdout.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		var o, e bytes.Buffer
		opts := Options{Agent: "gemini", Adapters: map[string]tally.StreamReader{"gemini": gemini.New(gemini.Options{Home: c.home})}, Now: fixedNow}
		if err := Run(context.Background(), in, &o, &e, opts); err != nil {
			t.Fatal(err)
		}
		evs := decode(t, o.String())
		last := evs[len(evs)-1]
		if last.Progress.Done != c.done || last.Progress.Total != c.total {
			t.Errorf("home %s: last list %d/%d, want %d/%d\n%s", c.home, last.Progress.Done, last.Progress.Total, c.done, c.total, o.String())
		}
	}
}

// An item without text is skipped and said so, as a malformed line is:
// the line it came on is named on the error stream and the end counts
// them. The line is Claude Code's own TodoWrite call with one item's text
// blanked.
func TestRun_itemWithoutTextIsSkippedWithADiagnostic(t *testing.T) {
	b, err := os.ReadFile(captured + "claude-code-2.1.330/todowrite/stream-json.stdout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	const real = `{"content":"Update README","status":"pending"`
	if !strings.Contains(lines[4], real) {
		t.Fatalf("line 5 of the capture is not the first TodoWrite call: %.200s", lines[4])
	}
	lines[4] = strings.Replace(lines[4], real, `{"content":" ","status":"pending"`, 1)
	out, errOut, err := run(t, strings.Join(lines[:5], ""), "claude")
	if err != nil {
		t.Fatal(err)
	}
	evs := decode(t, out)
	if len(evs) != 1 || len(evs[0].Items) != 2 || evs[0].Progress.Total != 2 {
		t.Errorf("events %+v, want one list of the two items with text", evs)
	}
	for _, want := range []string{
		"tally normalize: line 5: 1 item without text skipped (not shown, not counted in progress)\n",
		"tally normalize: 1 item without text skipped\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
}

// TestRun_aPrettyPrintedJSONDocumentIsReadWhole: the ACP specification's
// examples are one JSON-RPC message each, pretty-printed over many lines;
// read as lines, every one was malformed.
func TestRun_aPrettyPrintedJSONDocumentIsReadWhole(t *testing.T) {
	doc, err := os.ReadFile("../testdata/fixtures/acp/spec-agent-plan-session-update-plan.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{AgentAuto, "acp"} {
		out, errOut, err := run(t, string(doc), agent)
		if err != nil || errOut != "" {
			t.Fatalf("--agent %s: err %v, stderr %q", agent, err, errOut)
		}
		evs := decode(t, out)
		if len(evs) != 1 || len(evs[0].Items) != 3 || evs[0].Items[0].Text != "Analyze the existing codebase structure" {
			t.Errorf("--agent %s: events %+v, want the spec's plan of three entries", agent, evs)
		}
	}
	// An array of messages, pretty-printed, is each message in turn.
	compact := strings.Join(strings.Fields(string(doc)), " ")
	out, _, err := run(t, "[\n  "+compact+",\n  "+strings.Replace(compact, `"pending"`, `"completed"`, 1)+"\n]\n", "acp")
	if evs := decode(t, out); err != nil || len(evs) != 2 || evs[1].Items[0].Status != TodoCompleted {
		t.Errorf("array: err %v, events %+v", err, evs)
	}
}

// TestRun_anInputOfWhichNoLineCouldBeReadFails: "27 of 27 lines skipped"
// and exit 0 told a script all was well.
func TestRun_anInputOfWhichNoLineCouldBeReadFails(t *testing.T) {
	_, errOut, err := run(t, "{\"type\":\n{\"type\":\n", "codex")
	if tally.ErrorCode(err) != tally.CodeInvalid || !strings.Contains(errOut, "2 of 2 lines skipped") {
		t.Errorf("err %v, stderr %q; want CodeInvalid after the count", err, errOut)
	}
	_, _, err = run(t, "{\n  \"jsonrpc\": \n}\n", "acp")
	if tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("a document that is not JSON: err %v, want CodeInvalid", err)
	}
	if _, _, err := run(t, "{\"type\":\n"+codexList1+"\n", "codex"); err != nil {
		t.Errorf("one line of two read: err %v, want none", err)
	}
}

// FuzzLineReader_document: whatever a document holds, reading it ends,
// and every line it gives is one line.
func FuzzLineReader_document(f *testing.F) {
	for _, s := range []string{"{\n\"a\":1\n}\n", "[\n{\"a\":1},\n[2]\n]", "{\n\"a\":\n", "[\n1,\n", "{\n}\n{\n}\n", "[\n]\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lr := newLineReader(strings.NewReader(s), 1<<10)
		for range len(s) + 2 {
			line, _, err := lr.next()
			if err != nil {
				return
			}
			if bytes.IndexByte(line, '\n') != len(line)-1 {
				t.Fatalf("line %q is not one line", line)
			}
		}
		t.Fatal("more lines than bytes")
	})
}
