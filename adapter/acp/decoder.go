package acp

import (
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// The sessionUpdate values this decoder reads (docs/formats.md, ACP).
const (
	updPlan           = "plan"
	updToolCall       = "tool_call"
	updToolCallUpdate = "tool_call_update"
	updAgentMessage   = "agent_message_chunk"
	updAgentThought   = "agent_thought_chunk"
	updUserMessage    = "user_message_chunk"
)

// The agent→client methods this decoder reads.
const (
	methodUpdate     = "session/update"
	methodPermission = "session/request_permission"
)

// op names where a line's error comes from, for the person reading it:
// the agent, as every adapter does.
const op = string(Agent)

type decoder struct {
	p fastjson.Parser
	// text is the message being streamed, for its markers.
	text marker.Chunks
	// off is the offset of the line being decoded.
	off int64
	// buf holds a tool call's input written back, to be fingerprinted.
	buf []byte
}

func newDecoder(saved []byte) (*decoder, error) {
	d := &decoder{}
	if len(saved) > 0 {
		if err := json.Unmarshal(saved, &d.text); err != nil {
			return nil, tally.Errorf(tally.CodeInvalid, "acp.NewDecoder", "bad saved state: %v", err)
		}
	}
	return d, nil
}

func (d *decoder) State() []byte {
	if len(d.text.Held) == 0 {
		return nil
	}
	b, _ := json.Marshal(&d.text)
	return b
}

func (d *decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if v.Type() != fastjson.TypeObject || string(v.GetStringBytes("jsonrpc")) != "2.0" {
		return tally.Errorf(tally.CodeInvalid, op, `not a JSON-RPC 2.0 message (no "jsonrpc":"2.0")`)
	}
	d.off = off
	method := string(v.GetStringBytes("method"))
	if method != methodUpdate || updateKind(v) != updAgentMessage {
		d.flushText(emit) // the message being streamed has ended
	}
	params := v.Get("params")
	session := string(params.GetStringBytes("sessionId"))
	switch method {
	case methodUpdate:
		u := params.Get("update")
		if u == nil || u.Type() != fastjson.TypeObject {
			return tally.Errorf(tally.CodeInvalid, op, "session/update without an update object")
		}
		return d.update(session, u, emit)
	case methodPermission:
		// The agent waits for its user to allow a call: it is asking.
		if tc := params.Get("toolCall"); tc != nil && tc.Type() == fastjson.TypeObject {
			return then(toolCall(tc, emit), session, tally.SignalAsking, emit)
		}
		meta(session, tally.SignalAsking, emit)
		return nil
	case "":
		// A response. The one that ends a prompt turn has a stopReason; the
		// rest answer initialize, session/new and the like.
		if v.Get("result", "stopReason") != nil {
			meta("", tally.SignalWaiting, emit)
		}
	}
	return nil
}

func updateKind(v *fastjson.Value) string {
	return string(v.GetStringBytes("params", "update", "sessionUpdate"))
}

func (d *decoder) update(session string, u *fastjson.Value, emit func(tally.Event)) error {
	switch kind := string(u.GetStringBytes("sessionUpdate")); kind {
	case updPlan:
		return then(plan(u, emit), session, tally.SignalWorking, emit)
	case updToolCall, updToolCallUpdate:
		err := toolCall(u, emit)
		if err == nil && kind == updToolCall {
			d.fingerprint(u, emit)
		}
		return then(err, session, tally.SignalWorking, emit)
	case updAgentMessage:
		meta(session, tally.SignalWorking, emit)
		if u.Get("content", "type") != nil && string(u.GetStringBytes("content", "type")) == "text" {
			d.addText(u.GetStringBytes("content", "text"), emit)
		}
	case updAgentThought, updUserMessage:
		meta(session, tally.SignalWorking, emit)
	case "":
		return tally.Errorf(tally.CodeInvalid, op, "session/update without sessionUpdate")
	default:
		// available_commands_update, current_mode_update, usage_update and
		// kinds newer than this decoder: nothing about progress.
		meta(session, tally.SignalNone, emit)
	}
	return nil
}

// then records the session facts of a line once its content was usable:
// a malformed line changes nothing.
func then(err error, session string, sig tally.Signal, emit func(tally.Event)) error {
	if err == nil {
		meta(session, sig, emit)
	}
	return err
}

func meta(session string, sig tally.Signal, emit func(tally.Event)) {
	if session == "" && sig == tally.SignalNone {
		return
	}
	// A prompt's response and a request for permission are the agent's
	// own word that its turn is over: ACP has no tentative turn end.
	emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: session, Signal: sig, TurnOver: sig.TurnEnd()}})
}

// addText takes a chunk of the message being streamed. ACP lines carry
// no time, so markers leave At zero: whoever applies them dates them when
// they are read.
func (d *decoder) addText(chunk []byte, emit func(tally.Event)) {
	emitMarkers(d.text.Add(chunk, d.off, time.Time{}), emit)
}

func (d *decoder) flushText(emit func(tally.Event)) { emitMarkers(d.text.Flush(), emit) }

func emitMarkers(found []tally.Marker, emit func(tally.Event)) {
	for _, m := range found {
		emit(tally.Event{Kind: tally.EventMarker, Marker: m})
	}
}

// fingerprint emits the EventToolCall of a tool_call update: its title
// (which names the command or file) and its raw input, as the decoder
// writes them back (the line is parsed already, and the same input is
// written back the same way).
func (d *decoder) fingerprint(u *fastjson.Value, emit func(tally.Event)) {
	d.buf = d.buf[:0]
	if in := u.Get("rawInput"); in != nil {
		d.buf = in.MarshalTo(d.buf)
	}
	emit(tally.Event{Kind: tally.EventToolCall, Call: detect.Fingerprint(u.GetStringBytes("title"), d.buf)})
}
