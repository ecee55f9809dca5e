package codex

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// Between task_started and task_complete Codex is at work; after
// task_complete the next move is the user's — asked for, when the turn
// proposed a plan in Plan mode that no turn outside Plan mode has taken up
// yet. Checked after every line of the real rollouts.
func TestDecoder_ActivityFollowsTurns(t *testing.T) {
	for _, path := range rollouts(t) {
		t.Run(scenario(path), func(t *testing.T) {
			a := New(Options{Home: t.TempDir()})
			want := tally.SignalNone
			proposed := false
			lineByLine(t, a, fileInfo(t, a, path), read(t, path), func(line []byte, st *tally.FileState) {
				var l rolloutLine
				_ = json.Unmarshal(line, &l)
				switch {
				case l.Type == "event_msg" && l.Payload.Type == "item_completed" && l.Payload.Item.Type == "Plan":
					proposed = true
				case l.Type == "turn_context" && l.Payload.CollaborationMode.Mode != "plan":
					proposed = false
				case l.Type == "event_msg" && l.Payload.Type == "task_started":
					want = tally.SignalWorking
				case l.Type == "event_msg" && l.Payload.Type == "task_complete" && proposed:
					want = tally.SignalAsking
				case l.Type == "event_msg" && l.Payload.Type == "task_complete":
					want = tally.SignalWaiting
				}
				if st.Signal != want {
					t.Errorf("after %s/%s: signal %v, want %v", l.Type, l.Payload.Type, st.Signal, want)
				}
			})
		})
	}
}

// rec builds a rollout line.
func rec(ts, typ, payload string) string {
	return fmt.Sprintf(`{"timestamp":"2026-11-22T10:00:%sZ","type":%q,"payload":%s}`, ts, typ, payload)
}

func planCallLine(ts, id, plan string) string {
	args, _ := json.Marshal(`{"plan":` + plan + `}`)
	return rec(ts, "response_item", fmt.Sprintf(`{"type":"function_call","name":"update_plan","arguments":%s,"call_id":%q}`, args, id))
}

func outputLine(ts, id, output string) string {
	return rec(ts, "response_item", fmt.Sprintf(`{"type":"function_call_output","call_id":%q,"output":%s}`, id, output))
}

// feed folds lines with a decoder rebuilt from the saved state before each
// one, as if Tally restarted between every two lines.
func feed(t *testing.T, lines ...string) *tally.FileState {
	t.Helper()
	a := New(Options{Home: t.TempDir()})
	st := &tally.FileState{Session: "s"}
	for _, l := range lines {
		dec, err := a.NewDecoder(tally.FileInfo{Session: "s"}, st.Decoder)
		if err != nil {
			t.Fatal(err)
		}
		st.Feed(dec, []byte(l+"\n"))
	}
	return st
}

func TestDecoder_HeldPlans(t *testing.T) {
	const plan = `[{"step":"a","status":"in_progress"},{"step":"b","status":"pending"}]`
	want := []step{{"a", "in_progress"}, {"b", "pending"}}
	t.Run("a held call survives a restart and applies on its output", func(t *testing.T) {
		st := feed(t, planCallLine("01", "call_1", plan), `{"timestamp":"x","type":"event_msg","payload":{"type":"token_count"}}`, outputLine("02", "call_1", `"Plan updated"`))
		if got := stepsOf(st.Lists[""]); !reflect.DeepEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
		if st.Decoder != nil {
			t.Errorf("state after the answer = %s, want nothing held", st.Decoder)
		}
	})
	t.Run("a call with no answer (Codex killed) is not applied", func(t *testing.T) {
		st := feed(t, planCallLine("01", "call_1", plan))
		if n := len(stepsOf(st.Lists[""])); n != 0 {
			t.Errorf("list has %d items before Codex answered", n)
		}
		if !strings.Contains(string(st.Decoder), "call_1") {
			t.Errorf("state %s does not hold the call", st.Decoder)
		}
	})
	t.Run("structured outputs", func(t *testing.T) {
		for out, applied := range map[string]bool{
			`{"content":"Plan updated","success":true}`:     true,
			`[{"type":"input_text","text":"Plan updated"}]`: true,
			`{"content":"Plan updated","success":false}`:    false,
			`"aborted"`: false,
			`"update_plan is not allowed in Plan mode"`: false,
		} {
			st := feed(t, planCallLine("01", "c", plan), outputLine("02", "c", out))
			if got := len(stepsOf(st.Lists[""])) > 0; got != applied {
				t.Errorf("output %s: applied %v, want %v", out, got, applied)
			}
			if st.Stats.Malformed != 0 {
				t.Errorf("output %s counted as malformed", out)
			}
		}
	})
	t.Run("an answer in unknown words is not applied, and is reported", func(t *testing.T) {
		st := feed(t, planCallLine("01", "c", plan), outputLine("02", "c", `"Plan accepted with notes"`))
		if len(stepsOf(st.Lists[""])) != 0 || st.Stats.Malformed != 1 {
			t.Errorf("items %v, malformed %d; want none applied and 1 reported", stepsOf(st.Lists[""]), st.Stats.Malformed)
		}
	})
	t.Run("an unknown status word is kept", func(t *testing.T) {
		st := feed(t, planCallLine("01", "c", `[{"step":"a","status":"paused"}]`), outputLine("02", "c", `"Plan updated"`))
		items := st.Lists[""].Items()
		if len(items) != 1 || items[0].Status != tally.StatusUnknown || items[0].RawStatus != "paused" {
			t.Errorf("items %+v, want one unknown with raw status paused", items)
		}
	})
	t.Run("held calls are bounded", func(t *testing.T) {
		var lines []string
		for i := range 3 * maxPending {
			lines = append(lines, planCallLine("01", fmt.Sprint("call_", i), plan))
		}
		st := feed(t, lines...)
		var s state
		if err := json.Unmarshal(st.Decoder, &s); err != nil || len(s.Pending) != maxPending {
			t.Errorf("held %d calls (%v), want %d", len(s.Pending), err, maxPending)
		}
	})
}

func TestDecoder_LegacyBareItems(t *testing.T) {
	args, _ := json.Marshal(`{"plan":[{"step":"x","status":"completed"}]}`)
	st := feed(t,
		`{"id":"s","timestamp":"2025-06-01T00:00:00Z","instructions":null}`,
		fmt.Sprintf(`{"type":"function_call","name":"update_plan","arguments":%s,"call_id":"c"}`, args),
		`{"type":"function_call_output","call_id":"c","output":"Plan updated"}`)
	if got := stepsOf(st.Lists[""]); !reflect.DeepEqual(got, []step{{"x", "completed"}}) {
		t.Errorf("got %v", got)
	}
}

func TestDecoder_MalformedSelectedLines(t *testing.T) {
	a := New(Options{Home: t.TempDir()})
	for _, line := range []string{
		`{"type":"session_meta","payload":{"id":`,
		`{"type":"session_meta" oops}`,
		rec("01", "response_item", `{"type":"function_call","name":"update_plan","arguments":{"plan":[]},"call_id":"c"}`),
		rec("01", "response_item", `{"type":"function_call","name":"update_plan","arguments":"{}"}`),
		rec("01", "session_meta", `"not an object"`),
		`{"type":"thread.started"}`,
		`{"type":"item.updated","item":{"id":"i","type":"todo_list","items":{}}}`,
		`{"type":"item.updated","item":{"id":"i","type":"todo_list","items":[{"text":"a","completed":"yes"}]}}`,
		`{"type":"item.updated","item":{"id":"i","type":"todo_list","items":[{"completed":true}]}}`,
		`{"type":"item.started","item":"todo_list"}`,
		"half a line",
	} {
		dec, _ := a.NewDecoder(tally.FileInfo{}, nil)
		err := dec.Line([]byte(line), 0, func(tally.Event) { t.Errorf("%s: emitted an event", line) })
		if tally.ErrorCode(err) != tally.CodeInvalid {
			t.Errorf("Line(%s) = %v, want a CodeInvalid error", line, err)
		}
	}
	if _, err := a.NewDecoder(tally.FileInfo{}, []byte("{bad")); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("NewDecoder(bad state) = %v, want CodeInvalid", err)
	}
}
