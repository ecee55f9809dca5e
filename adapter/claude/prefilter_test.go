package claude

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// lineParsed is Line without the prefilter: every line shaped like an
// object is parsed, and each reason to read it is decided from the parsed
// line instead of guessed from its bytes. It is the reference the
// prefilter is held to: whatever the prefilter passes over, this reads.
// (Tool-call fingerprints, taken from the bytes alone, are left out: they
// are held to encoding/json by TestDecoder_toolCallsAsParsed.)
func (d *Decoder) lineParsed(line []byte, off int64, emit func(tally.Event)) error {
	d.ended, d.sidecarRead = false, false
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	p := parsers.Get()
	defer parsers.Put(p)
	v, err := p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return fmt.Errorf("line at offset %d is JSON but not an object", off)
	}
	d.parsed++
	// Every reason the decoder has to read a line, each as the decoder
	// itself checks it once the line is parsed; only those that change
	// what a line means (the start, a sidechain's list) are decided here.
	sel := selTool | selResult | selMeta | selMarker
	if !d.st.Started {
		sel |= selStart
	}
	if d.info.List == "" && d.st.Head < toolsLines {
		d.st.Head++
		sel |= selTools
	}
	if d.stream {
		sel |= selAgent
	}
	if d.info.List == "" && v.GetBool("isSidechain") && v.Get("agentId") == nil {
		sel |= selSidechain
	}
	d.evs = d.evs[:0]
	d.off = off
	l := lineOf(v)
	list := d.listOf(l, sel&selSidechain != 0)
	if err := d.decode(l, list, sel); err != nil {
		return err
	}
	for _, ev := range d.evs {
		emit(ev)
	}
	return nil
}

// claudeLogs are every real Claude Code log the repository holds: the
// transcripts and streams of fixtureFiles, the plan capture with its
// progress markers, the session that looped on one call, and the
// transcripts and streams recorded for the hooks (a permission prompt's
// answer, compactions, resumes, a stop guard).
func claudeLogs(t testing.TB) []logFile {
	files := fixtureFiles(t)
	hooks, _ := filepath.Glob("../../hook/testdata/claude-2.1.330/*/*.jsonl")
	e2e, _ := filepath.Glob("../../hook/testdata/e2e/claude-*/*.jsonl")
	for _, p := range append(hooks, e2e...) {
		if filepath.Base(p) == "requests.jsonl" {
			continue // the model's API requests, not Claude Code's log
		}
		files = append(files, logFile{path: p, info: tally.FileInfo{Path: p, Session: "hook"}})
	}
	if len(hooks) == 0 || len(e2e) == 0 {
		t.Fatal("no hook captures under ../../hook/testdata")
	}
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	streams, _ := filepath.Glob(planCapture + "/*stream-json.stdout.jsonl")
	for _, p := range append(logs, streams...) {
		files = append(files, logFile{path: p, info: tally.FileInfo{Path: p, Session: "plan"}})
	}
	if len(logs) == 0 || len(streams) == 0 {
		t.Fatalf("no plan capture under %s", planCapture)
	}
	return append(files, logFile{path: loopCapture, info: tally.FileInfo{Path: loopCapture, Session: "loop"}})
}

// TestPrefilter_losesNothing: on every real capture, the lines the byte
// prefilter passes over unparsed are lines that say nothing: decoding
// with it gives, line for line, the events that parsing every line gives.
// It also says how many lines the prefilter spares the parser.
func TestPrefilter_losesNothing(t *testing.T) {
	var lines, parsed int
	kinds := map[tally.EventKind]int{}
	for _, lf := range claudeLogs(t) {
		fi := lf.info
		if strings.HasSuffix(fi.Path, "stream-json.stdout.jsonl") || strings.HasSuffix(fi.Path, ".stream.jsonl") {
			fi.Path = "-" // read as a stream, as normalize and follow read it
		}
		fast, err := newDecoder(fi, nil)
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := newDecoder(fi, nil)
		for n, l := range bytes.Split(read(t, lf.path), []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			lines++
			var got, want []tally.Event
			_ = fast.Line(l, int64(n), func(ev tally.Event) {
				if ev.Kind != tally.EventToolCall {
					got = append(got, ev)
				}
			})
			if err := slow.lineParsed(l, int64(n), func(ev tally.Event) { want = append(want, ev) }); err != nil {
				t.Errorf("%s:%d: a real line does not decode: %v", lf.path, n+1, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:%d: the prefilter gives\n%+v\nparsing the line gives\n%+v", lf.path, n+1, got, want)
			}
			for _, ev := range want {
				kinds[ev.Kind]++
			}
		}
		parsed += int(fast.parsed)
	}
	// The captures must say each kind of thing the prefilter selects for,
	// or the comparison proves nothing of it.
	for _, k := range []tally.EventKind{tally.EventSnapshot, tally.EventTaskCreate, tally.EventTaskAssign, tally.EventTaskUpdate,
		tally.EventTaskResync, tally.EventMeta, tally.EventMarker} {
		if kinds[k] == 0 {
			t.Errorf("no %v event in the captures", k)
		}
	}
	t.Logf("%d lines, %d parsed (%.1f%% never parsed); events %v", lines, parsed, 100*float64(lines-parsed)/float64(lines), kinds)
}

// TestLook_ownMessageIsTheLineType: the look tells a line's kind from its
// first nested object, without finding its type (which Claude Code writes
// after the message, but before it in the API request logs that repeat a
// message). On every real line, a user or assistant line is told as one,
// and no line of another type as either.
func TestLook_ownMessageIsTheLineType(t *testing.T) {
	seen := map[string]int{}
	for _, lf := range claudeLogs(t) {
		d, _ := newDecoder(lf.info, nil)
		for n, l := range bytes.Split(read(t, lf.path), []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			v, err := fastjson.ParseBytes(l)
			if err != nil {
				t.Fatalf("%s:%d: %v", lf.path, n+1, err)
			}
			typ := string(v.GetStringBytes("type"))
			kind := d.lookAt(l).kind
			seen[typ]++
			want := map[string]lineKind{"user": kindUser, "assistant": kindAssistant}[typ]
			if kind != want {
				t.Errorf("%s:%d: a %s line looked like kind %d, want %d", lf.path, n+1, typ, kind, want)
			}
		}
	}
	if seen["user"] < 100 || seen["assistant"] < 100 || len(seen) < 10 {
		t.Errorf("too few lines of each type to tell: %v", seen)
	}
}

// TestLook_oddLines: what the look makes of lines Claude Code does not
// write, but a log may hold: a brace in a string before the message, keys
// in another order, blanks, a relayed message, a message cut short.
func TestLook_oddLines(t *testing.T) {
	for _, tt := range []struct {
		name, line string
		kind       lineKind
		tool, mark bool
		calls      int
	}{
		{"a brace in the cwd before the message", `{"cwd":"/src/{app}","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"TodoWrite","input":{"todos":[]}}]},"type":"assistant"}`, kindAssistant, true, false, 1},
		{"blanks around the colons", `{"cwd": "/src", "message": {"role": "assistant", "content": [{"type": "text", "text": "progress: T1 done"}]}}`, kindAssistant, false, true, 0},
		{"an id holding a quote", `{"message":{"id":"m\\\"1","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"progress: T1 done"}]}}`, kindAssistant, false, true, 0},
		{"an empty id and model", `{"message":{"id":"","type":"message","role":"assistant","model":"","content":[{"type":"tool_use","id":"t","name":"TaskList","input":{}}]}}`, kindAssistant, true, false, 1},
		{"a role that is no string", `{"message":{"role":1,"content":[{"type":"tool_use","id":"t","name":"TaskList","input":{}}]}}`, kindOther, false, false, 0},
		{"role after the content", `{"message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}],"role":"assistant"}}`, kindAssistant, false, false, 1},
		{"a block's keys in another order", `{"message":{"role":"assistant","content":[{"input":{"todos":[]},"name":"TodoWrite","id":"t","type":"tool_use"}]}}`, kindAssistant, true, false, 1},
		{"a marker in a tool's input only", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Write","input":{"content":"progress: T1 done"}}]}}`, kindAssistant, false, false, 1},
		{"a marker in thinking only", `{"message":{"role":"assistant","content":[{"type":"thinking","thinking":"progress: T1 done"}]}}`, kindAssistant, false, false, 0},
		{"an MCP tool named like a task tool", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"mcp__x__TaskCreate","input":{}}]}}`, kindAssistant, false, false, 1},
		{"an API request log repeating the assistant's call", `{"type":"api-request-blob","sessionId":"s","hash":"h","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"TodoWrite","input":{"todos":[]}}]}}`, kindOther, false, false, 0},
		{"a relayed sub-agent's call", `{"type":"progress","data":{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"TodoWrite","input":{}}]}}}`, kindOther, false, false, 0},
		{"a nested message key", `{"toolUseResult":{"message":{"role":"assistant","content":[]}}}`, kindOther, false, false, 0},
		{"an array first", `{"messages":[{"role":"assistant","content":[]}],"message":{"role":"assistant","content":[]}}`, kindOther, false, false, 0},
		{"a user's prompt", `{"type":"user","message":{"role":"user","content":"progress: T1 done"}}`, kindUser, false, false, 0},
		{"no nested object", `{"type":"queue-operation","content":"TodoWrite"}`, kindOther, false, false, 0},
		{"blocks cut short", `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"TodoWrite","input":{"todos":[}]}}`, kindAssistant, false, false, 0},
	} {
		d, _ := newDecoder(tally.FileInfo{Path: "x.jsonl"}, nil)
		lk := d.lookAt([]byte(tt.line))
		if lk.kind != tt.kind || lk.tool != tt.tool || lk.marker != tt.mark || len(lk.calls) != tt.calls {
			t.Errorf("%s: kind %d tool %v marker %v calls %d; want %d %v %v %d",
				tt.name, lk.kind, lk.tool, lk.marker, len(lk.calls), tt.kind, tt.tool, tt.mark, tt.calls)
		}
	}
}

// FuzzLook: on any line the look ends without a panic, and on any line
// that is JSON, what it read of an assistant's blocks is what the parser
// reads of them: the same tool calls in order, the same todo/task call,
// the same text that may hold a marker.
func FuzzLook(f *testing.F) {
	for _, lf := range claudeLogs(f) {
		for _, l := range bytes.Split(read(f, lf.path), []byte("\n")) {
			if bytes.Contains(l, []byte(`"role":"assistant"`)) && len(l) < 4096 {
				f.Add(l)
			}
		}
	}
	f.Add([]byte(`{"message":{"role":"assistant","content":[{"type":"text","text":"progress: T1 done"},{"type":"tool_use","name":"TaskCreate","input":{}}]}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !jsonl.Object(line) {
			return
		}
		d, _ := newDecoder(tally.FileInfo{Path: "f.jsonl"}, nil)
		lk := d.lookAt(line)
		v, err := fastjson.ParseBytes(line)
		if err != nil || lk.kind != kindAssistant || !lk.read {
			return
		}
		if string(v.GetStringBytes("message", "role")) != "assistant" {
			t.Fatalf("an assistant's line whose message's role is %q", v.GetStringBytes("message", "role"))
		}
		var names []string
		tool, mark := false, false
		for _, b := range v.GetArray("message", "content") {
			switch string(b.GetStringBytes("type")) {
			case "tool_use":
				name := string(b.GetStringBytes("name"))
				names = append(names, name)
				tool = tool || d.readsTool([]byte(name))
			case "text":
				mark = mark || marker.Maybe(b.GetStringBytes("text"))
			}
		}
		var got []string
		for _, c := range lk.calls {
			s, _ := fastjson.ParseBytes(c.name)
			got = append(got, string(s.GetStringBytes()))
		}
		if strings.Join(got, "\x00") != strings.Join(names, "\x00") {
			t.Fatalf("calls %q, the parser reads %q", got, names)
		}
		// Names and text are matched as written: a letter written as
		// \u0054 is not looked for (no JSON writer escapes one).
		if bytes.Contains(line, []byte(`\u`)) {
			return
		}
		if lk.tool != tool || lk.marker != mark {
			t.Fatalf("todo/task call %v, marker %v; the parser's blocks say %v, %v", lk.tool, lk.marker, tool, mark)
		}
	})
}
