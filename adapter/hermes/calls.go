package hermes

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/detect"
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

// todoCalls returns the todo calls of a tool_calls list, and the
// fingerprint of every call in it (see detect.Fingerprint: the name and
// the arguments as written, a JSON string hashed with its escapes).
func todoCalls(raw []byte) ([]wireCall, []uint64, error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	var calls []wireCall
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, nil, err
	}
	fps := make([]uint64, 0, len(calls))
	out := calls[:0]
	for _, c := range calls {
		fps = append(fps, detect.Fingerprint(c.Function.Name, c.Function.Arguments))
		if isTodoTool(c.Function.Name) {
			out = append(out, c)
		}
	}
	return out, fps, nil
}

// message is one chat message reduced to what Tally reads from it.
type message struct {
	role     string
	hasCalls bool
	calls    []wireCall // todo calls only
	// fps are the fingerprints of every tool call of the message, for
	// EventToolCall; nil where the reader does not take them.
	fps     []uint64
	callID  string // a tool message's tool_call_id
	content []byte // a tool message's content
	// markers are an assistant message's progress markers, numbered
	// within it; where the message is, is its reader's to say.
	markers []tally.Marker
	at      time.Time
	// session and row locate a message of state.db (messages.session_id
	// and messages.id) for diagnostics; both are zero elsewhere.
	session string
	row     int64
	// notUTF8: the message held text that is not UTF-8, which
	// encoding/json read with U+FFFD for the bad bytes. Its events say so
	// (tally.Event.Repair), for the fold to count and report.
	notUTF8 bool
}

// repaired marks ev as made of text that was not UTF-8 if any of msgs was.
func repaired(ev tally.Event, msgs ...message) tally.Event {
	for _, m := range msgs {
		if m.notUTF8 {
			ev.Repair = tally.RepairNotUTF8
		}
	}
	return ev
}

// name is how a diagnostic names the message's row.
func (m message) name() string {
	return fmt.Sprintf("row %d (session %s)", m.row, m.session)
}

// callEvent is what one todo call did to the list, read from its
// arguments the way Hermes applies them: the fallback for a call with no
// readable result. ok is false when the call changed nothing (a read).
func callEvent(c wireCall, at time.Time) (ev tally.Event, ok bool, err error) {
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

// problem is a todo call, or its result, that todoEvents could not read.
type problem struct {
	msg    message // the call's message, or the result's
	callID string
	result bool // the result was unreadable; the arguments were tried
	err    error
}

func (p problem) String() string {
	if p.result {
		return fmt.Sprintf("the result of todo call %s is not a todo list (%v); the call's arguments are used instead", p.callID, p.err)
	}
	return fmt.Sprintf("todo call %s has no readable result and its arguments cannot be read (%v); the call is skipped", p.callID, p.err)
}

// todoEvents pairs every todo call of a whole conversation with its result
// (by tool_call_id) and returns their events in order, and what could not
// be read. A call's result, the full list Hermes returned, is the state
// after the call and wins; a result saying the call failed means nothing
// changed; with no readable result the arguments are applied.
func todoEvents(msgs []message) (evs []tally.Event, probs []problem) {
	results := make(map[string]message)
	for _, m := range msgs {
		if m.role == "tool" && m.callID != "" {
			results[m.callID] = m
		}
	}
	for _, m := range msgs {
		for _, fp := range m.fps {
			evs = append(evs, tally.Event{Kind: tally.EventToolCall, At: m.at, Call: fp})
		}
		for _, c := range m.calls {
			if r, has := results[c.ID]; has && c.ID != "" {
				items, err := parseResult(r.content)
				if err == nil {
					evs = append(evs, repaired(tally.Event{Kind: tally.EventSnapshot, Items: items, ToolUseID: c.ID, At: m.at}, m, r))
					continue
				}
				if errors.Is(err, errFailed) {
					continue
				}
				probs = append(probs, problem{msg: r, callID: c.ID, result: true, err: err})
			}
			ev, ok, err := callEvent(c, m.at)
			if err != nil {
				probs = append(probs, problem{msg: m, callID: c.ID, err: err})
			}
			if ok {
				evs = append(evs, repaired(ev, m))
			}
		}
	}
	return evs, probs
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
