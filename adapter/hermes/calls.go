package hermes

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/tallyhq/tally"
)

// wireCall is one entry of an assistant message's tool_calls, in OpenAI
// chat format.
type wireCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// todoCalls returns the todo calls of a tool_calls list.
func todoCalls(raw []byte) ([]wireCall, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var calls []wireCall
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, err
	}
	out := calls[:0]
	for _, c := range calls {
		if isTodoTool(c.Function.Name) {
			out = append(out, c)
		}
	}
	return out, nil
}

// message is one chat message reduced to what Tally reads from it.
type message struct {
	role     string
	hasCalls bool
	calls    []wireCall // todo calls only
	callID   string     // a tool message's tool_call_id
	content  []byte     // a tool message's content
	at       time.Time
}

// callEvent is what one todo call did to the list. Its result, the full
// list Hermes returned, is the state after the call and wins; a result
// saying the call failed means nothing changed; with no readable result
// the arguments are applied the way Hermes applies them. ok is false when
// the call changed nothing (a read, a failed call).
func callEvent(c wireCall, at time.Time, res []byte, hasRes bool) (ev tally.Event, ok bool, err error) {
	if hasRes {
		items, rerr := parseResult(res)
		switch {
		case rerr == nil:
			return tally.Event{Kind: tally.EventSnapshot, Items: items, ToolUseID: c.ID, At: at}, true, nil
		case errors.Is(rerr, errFailed):
			return tally.Event{}, false, nil
		}
	}
	ev, err = parseArgs(c.Function.Arguments)
	if errors.Is(err, errRead) {
		return tally.Event{}, false, nil
	}
	if err != nil {
		return tally.Event{}, false, err
	}
	ev.ToolUseID, ev.At = c.ID, at
	return ev, true, nil
}

// todoEvents pairs every todo call of a whole conversation with its result
// (by tool_call_id) and returns their events in order, and how many calls
// could be read neither from their result nor from their arguments.
func todoEvents(msgs []message) (evs []tally.Event, bad int) {
	results := make(map[string][]byte)
	for _, m := range msgs {
		if m.role == "tool" && m.callID != "" {
			results[m.callID] = m.content
		}
	}
	for _, m := range msgs {
		for _, c := range m.calls {
			res, has := results[c.ID]
			ev, ok, err := callEvent(c, m.at, res, has && c.ID != "")
			if err != nil {
				bad++
			}
			if ok {
				evs = append(evs, ev)
			}
		}
	}
	return evs, bad
}

// signalOf is whose turn it is after a message: an assistant message that
// calls no tool ends the agent's turn.
func signalOf(role string, hasCalls bool) tally.Signal {
	switch role {
	case "assistant":
		if hasCalls {
			return tally.SignalWorking
		}
		return tally.SignalWaiting
	case "user", "tool":
		return tally.SignalWorking
	}
	return tally.SignalNone
}

// unixTime converts Hermes' REAL seconds since the epoch. A value outside
// any plausible clock (a damaged row) is no time at all.
func unixTime(sec float64) time.Time {
	if sec <= 0 || sec > 1e11 {
		return time.Time{}
	}
	return time.Unix(0, int64(sec*1e9)).UTC()
}
