package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/detect"
)

// loopCapture is a real Claude Code session that ran `ls` five times in a
// row (see its README).
const loopCapture = "../../detect/testdata/claude-loop/session.jsonl"

type call struct {
	fp uint64
	at time.Time
}

// decodedCalls are the tool calls the decoder emits for a file.
func decodedCalls(t *testing.T, fi tally.FileInfo) []call {
	t.Helper()
	d, err := newDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []call
	for _, l := range bytes.Split(read(t, fi.Path), []byte("\n")) {
		_ = d.Line(l, 0, func(ev tally.Event) {
			if ev.Kind == tally.EventToolCall {
				out = append(out, call{ev.Call, ev.At})
			}
		})
	}
	return out
}

// parsedCalls reads the same with encoding/json: every tool_use block of
// the agent's own assistant messages (not of stream events, API request
// logs or progress relays), its input as the raw bytes logged.
func parsedCalls(t *testing.T, path string) []call {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []call
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l struct {
			Type      string
			Timestamp time.Time
			Message   struct {
				Role    string
				Content json.RawMessage
			}
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Type != "assistant" || l.Message.Role != "assistant" {
			continue
		}
		var blocks []struct {
			Type  string
			Name  string
			Input json.RawMessage
		}
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_use" {
				out = append(out, call{detect.Fingerprint(b.Name, b.Input), l.Timestamp})
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDecoder_toolCallsAsParsed: on every real transcript and stream, the
// calls fingerprinted from the bytes are exactly those a JSON parser
// finds, in order, with the same fingerprints and times.
func TestDecoder_toolCallsAsParsed(t *testing.T) {
	files := claudeLogs(t)
	total := 0
	for _, lf := range files {
		got, want := decodedCalls(t, lf.info), parsedCalls(t, lf.path)
		total += len(want)
		if len(got) != len(want) {
			t.Errorf("%s: %d calls, want %d", lf.path, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].fp != want[i].fp || !got[i].at.Equal(want[i].at) {
				t.Errorf("%s: call %d = %#x at %v, want %#x at %v", lf.path, i, got[i].fp, got[i].at, want[i].fp, want[i].at)
				break
			}
		}
	}
	if total < 100 {
		t.Errorf("only %d calls in the fixtures: the comparison proves little", total)
	}
}

func TestDecoder_theLoopCaptureRepeatsOneCall(t *testing.T) {
	calls := decodedCalls(t, tally.FileInfo{Path: loopCapture, Session: "loop"})
	if len(calls) != 7 {
		t.Fatalf("%d calls, want ToolSearch, TodoWrite and five ls", len(calls))
	}
	ls := detect.Fingerprint("Bash", []byte(`{"command":"ls","description":"List files"}`))
	for i, c := range calls[2:] {
		if c.fp != ls {
			t.Errorf("call %d = %#x, want Bash ls %#x", i+2, c.fp, ls)
		}
	}
	if calls[0].fp == ls || calls[1].fp == ls {
		t.Error("ToolSearch or TodoWrite hashed as ls")
	}
}

func TestDecoder_toolCallsNotOwn(t *testing.T) {
	for name, line := range map[string]string{
		"a stream event's empty input": `{"type":"stream_event","event":{"type":"content_block_start","content_block":{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}}}`,
		"an API request's history":     `{"type":"api-request-blob","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}]}`,
		"an API request's message":     `{"type":"api-request-blob","sessionId":"b8ab2d78-1526-4e5f-9f72-f691e060dd0b","hash":"ff842e34","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}`,
		"a sub-agent relayed":          `{"parentUuid":"p","type":"progress","data":{"message":{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}},"timestamp":"2026-11-23T16:55:50.202Z"}`,
		"a line cut short":             `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"l`,
		"an input never closed":        `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls\"}]}}`,
	} {
		d, _ := newDecoder(tally.FileInfo{Path: "x.jsonl"}, nil)
		_ = d.Line([]byte(line), 0, func(ev tally.Event) {
			if ev.Kind == tally.EventToolCall {
				t.Errorf("%s: a tool call was emitted", name)
			}
		})
	}
}
