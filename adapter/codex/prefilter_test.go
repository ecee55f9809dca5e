package codex

import (
	"bytes"
	"encoding/json"
	"testing"
)

// classify reads only a line's head; on the real rollouts it must find
// every needle a scan of the whole line finds where it matters to the
// decoder, which by the line's type is: a session_meta line, an update_plan
// call, the output of a held call, a user message.
func TestClassify_AgreesWithFullScan(t *testing.T) {
	for _, path := range rollouts(t) {
		data := read(t, path)
		var pending []pendingPlan
		for _, line := range bytes.Split(data, []byte("\n")) {
			var l rolloutLine
			if json.Unmarshal(line, &l) == nil && l.Payload.CallID != "" {
				pending = append(pending, pendingPlan{CallID: l.Payload.CallID})
			}
		}
		for i, line := range bytes.Split(data, []byte("\n")) {
			var l rolloutLine
			if len(line) == 0 || json.Unmarshal(line, &l) != nil {
				continue
			}
			for _, titled := range []bool{false, true} {
				full, head := fullScan(line, pending, titled), classify(line, pending, titled)
				full &= matters(l)
				if full != head {
					t.Errorf("%s line %d (%s/%s, titled %v): classify %b, full scan %b", scenario(path), i+1, l.Type, l.Payload.Type, titled, head, full)
				}
			}
		}
	}
}

func TestScan_Needles(t *testing.T) {
	pending := []pendingPlan{{CallID: "call_1"}}
	tests := []struct {
		line string
		want hits
	}{
		{`{"type":"function_call","name":"update_plan","arguments":"{}"}`, hitPlan},
		{`{"type":"message","content":"call \"name\":\"update_plan\" please"}`, 0},
		{`{"type":"function_call_output","call_id":"call_1","output":"x"}`, hitCall},
		{`{"type":"function_call_output","call_id":"call_12","output":"x"}`, 0},
		{`{"type":"session_meta","payload":{}}`, hitMeta},
		{`{"type":"item.updated","item":{"type":"todo_list"}}`, hitTodo},
		{`{"text":"a todo_list of update_plan and session_meta"}`, 0},
	}
	for _, tt := range tests {
		if got := scan([]byte(tt.line), pending); got != tt.want {
			t.Errorf("scan(%s) = %b, want %b", tt.line, got, tt.want)
		}
	}
}

func matters(l rolloutLine) hits {
	if l.Type == "session_meta" {
		return hitMeta
	}
	if l.Type != "response_item" {
		return 0
	}
	switch l.Payload.Type {
	case "function_call":
		return hitPlan
	case "function_call_output":
		return hitCall
	case "message":
		return hitUser
	}
	return 0
}
