package gemini

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/detect"
)

type call struct {
	fp uint64
	at time.Time
}

func decodedCalls(t *testing.T, lf logFile) []call {
	t.Helper()
	d, err := newDecoder(lf.info, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []call
	for _, l := range bytes.Split(read(t, lf.path), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		_ = d.Line(l, 0, func(ev tally.Event) {
			if ev.Kind == tally.EventToolCall {
				out = append(out, call{ev.Call, ev.At})
			}
		})
	}
	return out
}

// parsedCalls reads the same with encoding/json: each toolCalls entry of a
// MessageRecord, once per call id, and each stream-json tool_use, with
// the arguments as written.
func parsedCalls(t *testing.T, path string) []call {
	t.Helper()
	seen := map[string]bool{}
	var out []call
	for _, l := range bytes.Split(read(t, path), []byte("\n")) {
		var m struct {
			ID        *string
			Type      string
			Timestamp time.Time
			ToolCalls []struct {
				ID, Name string
				Args     json.RawMessage
			}
			ToolName   string `json:"tool_name"`
			Parameters json.RawMessage
		}
		if json.Unmarshal(l, &m) != nil {
			continue
		}
		if m.ID != nil {
			for _, c := range m.ToolCalls {
				if !seen[c.ID] {
					seen[c.ID] = true
					out = append(out, call{detect.Fingerprint(c.Name, c.Args), m.Timestamp})
				}
			}
		} else if m.Type == "tool_use" {
			out = append(out, call{detect.Fingerprint(m.ToolName, m.Parameters), m.Timestamp})
		}
	}
	return out
}

// TestDecoder_toolCallsAsParsed: on every chat record and stream of the
// captures, the calls fingerprinted from the bytes are those a JSON parser
// finds, each once though its message is appended again as it runs.
func TestDecoder_toolCallsAsParsed(t *testing.T) {
	total := 0
	for _, lf := range fixtureFiles(t) {
		got, want := decodedCalls(t, lf), parsedCalls(t, lf.path)
		total += len(want)
		if len(got) != len(want) {
			t.Errorf("%s: %d calls, want %d", lf.path, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i] != want[i] && (got[i].fp != want[i].fp || !got[i].at.Equal(want[i].at)) {
				t.Errorf("%s: call %d = %#x at %v, want %#x at %v", lf.path, i, got[i].fp, got[i].at, want[i].fp, want[i].at)
			}
		}
	}
	if total < 20 {
		t.Errorf("only %d calls in the captures", total)
	}
}

func TestDecoder_callsSurviveARestart(t *testing.T) {
	first := `{"id":"m1","timestamp":"2026-11-22T14:06:50.606Z","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"executing"}]}`
	again := `{"id":"m1","timestamp":"2026-11-22T14:06:50.606Z","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"a\nb"}}}]}]}`
	st := &tally.FileState{Path: "s.jsonl"}
	n := 0
	for _, l := range []string{first, again} {
		d, err := newDecoder(tally.FileInfo{Path: "s.jsonl"}, st.Decoder)
		if err != nil {
			t.Fatal(err)
		}
		_ = d.Line([]byte(l), 0, func(ev tally.Event) {
			if ev.Kind == tally.EventToolCall {
				n++
			}
		})
		st.Decoder = d.State()
	}
	if n != 1 {
		t.Errorf("%d calls, want one: the message was appended again as its call ran", n)
	}
}
