package codex

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

// TestDecoder_toolCallsAsParsed: on every real rollout, the calls
// fingerprinted from the bytes are exactly those encoding/json finds — a
// response_item function_call (arguments), custom_tool_call (input) or
// local_shell_call (action), as written — in order, at the line's time.
func TestDecoder_toolCallsAsParsed(t *testing.T) {
	total := 0
	for _, path := range rollouts(t) {
		a := New(Options{Home: t.TempDir()})
		dec, err := a.NewDecoder(fileInfo(t, a, path), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []call
		for _, line := range bytes.Split(read(t, path), []byte("\n")) {
			_ = dec.Line(line, 0, func(ev tally.Event) {
				if ev.Kind == tally.EventToolCall {
					got = append(got, call{ev.Call, ev.At})
				}
			})
			var l struct {
				Timestamp time.Time
				Type      string
				Payload   struct {
					Type, Name               string
					Arguments, Input, Action json.RawMessage
				}
			}
			if json.Unmarshal(line, &l) != nil || l.Type != "response_item" {
				continue
			}
			switch p := l.Payload; p.Type {
			case "function_call":
				want = append(want, call{detect.Fingerprint(p.Name, p.Arguments), l.Timestamp})
			case "custom_tool_call":
				want = append(want, call{detect.Fingerprint(p.Name, p.Input), l.Timestamp})
			case "local_shell_call":
				want = append(want, call{detect.Fingerprint("local_shell", p.Action), l.Timestamp})
			}
		}
		total += len(want)
		if len(got) != len(want) {
			t.Errorf("%s: %d calls, want %d", scenario(path), len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].fp != want[i].fp || !got[i].at.Equal(want[i].at) {
				t.Errorf("%s: call %d = %#x at %v, want %#x at %v", scenario(path), i, got[i].fp, got[i].at, want[i].fp, want[i].at)
			}
		}
	}
	if total < 10 {
		t.Errorf("only %d calls in the captures", total)
	}
}

func TestDecoder_toolCalls(t *testing.T) {
	shell := rec("01", "response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"go test\"}","call_id":"c1"}`)
	again := rec("02", "response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"go test\"}","call_id":"c2"}`)
	other := rec("03", "response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"go vet\"}","call_id":"c3"}`)
	local := rec("04", "response_item", `{"type":"local_shell_call","call_id":"c4","status":"completed","action":{"type":"exec","command":["ls"]}}`)
	output := outputLine("05", "c1", `"ok"`)
	var fps []uint64
	var times []time.Time
	a := New(Options{Home: t.TempDir()})
	dec, _ := a.NewDecoder(tally.FileInfo{Session: "s"}, nil)
	for _, l := range []string{shell, again, other, local, output} {
		_ = dec.Line([]byte(l), 0, func(ev tally.Event) {
			if ev.Kind == tally.EventToolCall {
				fps, times = append(fps, ev.Call), append(times, ev.At)
			}
		})
	}
	if len(fps) != 4 {
		t.Fatalf("%d calls, want 4: an output is no call", len(fps))
	}
	if fps[0] != fps[1] || fps[1] == fps[2] || fps[3] == fps[0] {
		t.Errorf("fingerprints %x: want the same command twice, then two others", fps)
	}
	if times[0].Second() != 1 || times[3].Second() != 4 {
		t.Errorf("times %v, want each line's", times)
	}

	t.Run("calls before the window are passed over", func(t *testing.T) {
		dec, _ := a.NewDecoder(tally.FileInfo{Session: "s"}, nil)
		dec.(tally.CallWindow).CallsFrom(time.Date(2026, 11, 22, 10, 0, 2, 0, time.UTC))
		n := 0
		for _, l := range []string{shell, again, other} {
			_ = dec.Line([]byte(l), 0, func(ev tally.Event) {
				if ev.Kind == tally.EventToolCall {
					n++
				}
			})
		}
		if n != 2 {
			t.Errorf("%d calls, want the two from 10:00:02 on", n)
		}
	})
}

func TestDecoder_askingForApprovalOrInput(t *testing.T) {
	for _, typ := range []string{"exec_approval_request", "apply_patch_approval_request", "request_user_input"} {
		st := feed(t, rec("01", "event_msg", `{"type":"task_started"}`), rec("02", "event_msg", `{"type":"`+typ+`"}`))
		if st.Signal != tally.SignalAsking {
			t.Errorf("%s: signal %v, want asking", typ, st.Signal)
		}
	}
	if st := feed(t, rec("01", "event_msg", `{"type":"task_complete"}`)); st.Signal != tally.SignalWaiting {
		t.Errorf("task_complete: signal %v, want waiting (the turn is over, nothing asked)", st.Signal)
	}
}
