package codex

import (
	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// Recent reads activity from the newest rollout lines: the time of each,
// and whose turn it is from the newest line that says. Exec lines carry no
// time and their turn events are read in Line, so they end the walk.
func (d *decoder) Recent(line []byte, emit func(tally.Event)) bool {
	if execOf(line) != execNone {
		return true
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return false
	}
	at := stamp(v)
	top := string(v.GetStringBytes("type"))
	item := v.Get("payload")
	if item == nil {
		item, top = v, "response_item"
	}
	sig := signalOf(top, item)
	if sig == tally.SignalWaiting && d.st.Proposed {
		// The turn ended on a plan proposed for approval (proposal.go).
		sig = tally.SignalAsking
	}
	if !at.IsZero() || sig != tally.SignalNone {
		// An event_msg is Codex's own word on its turn; a final answer
		// is followed by task_complete, which says it.
		emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: tally.Meta{Signal: sig, TurnOver: top == "event_msg"}})
	}
	return sig != tally.SignalNone
}

// signalOf says whose turn a rollout line shows, SignalNone when it does not
// tell (token counts, settings, world state).
func signalOf(top string, item *fastjson.Value) tally.Signal {
	typ := string(item.GetStringBytes("type"))
	switch top {
	case "turn_context":
		return tally.SignalWorking
	case "event_msg":
		switch typ {
		case "task_started", "turn_started", "user_message":
			return tally.SignalWorking
		case "task_complete", "turn_complete", "turn_aborted":
			return tally.SignalWaiting
		case "exec_approval_request", "apply_patch_approval_request", "request_user_input":
			return tally.SignalAsking
		}
	case "response_item":
		switch typ {
		case "":
			return tally.SignalNone
		case "message":
			// Only a final answer ends the turn; commentary is followed by
			// more work. Versions without a phase end turns with
			// task_complete, which the walk finds first.
			if string(item.GetStringBytes("role")) == "assistant" && string(item.GetStringBytes("phase")) == "final_answer" {
				return tally.SignalWaiting
			}
			return tally.SignalWorking
		}
		// Tool calls, their outputs, reasoning: the agent is at work.
		return tally.SignalWorking
	}
	return tally.SignalNone
}
