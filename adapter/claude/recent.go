package claude

import (
	"bytes"

	"github.com/tallyhq/tally"
)

const maxRecentLine = 64 << 10

// Recent reads the newest lines, newest first, for when the session was
// last active and whose turn it is. Any timestamped line gives the time;
// the newest user or assistant line gives the turn:
//   - an assistant line that calls a tool, or whose stop_reason is
//     tool_use: the agent is working;
//   - any other assistant line (end_turn, or the null stop_reason of
//     1.0.x's last text): the turn is over, the user is awaited; when its
//     last text ends with a question, the agent asked the user. Only
//     end_turn is the model's own word (Meta.TurnOver): a null
//     stop_reason may yet be followed by the reply's tool calls;
//   - a user line (prompt or tool result): the agent is working.
//
// stream-json's final "result" line ends the session. A sub-agent's file
// not named yet looks for its sidecar, once a read: it may be written after
// the transcript's first lines.
//
// Lines longer than maxRecentLine are passed over: parsing one costs more
// than the milliseconds of activity time it could add.
func (d *Decoder) Recent(raw []byte, emit func(tally.Event)) bool {
	d.nameFromSidecar(emit)
	if len(raw) > maxRecentLine {
		return false // an API request log or a huge tool result: the line before it tells as much
	}
	p := parsers.Get()
	defer parsers.Put(p)
	if !bytes.Contains(raw, timestampNeedle) {
		if bytes.Contains(raw, resultNeedle) {
			if v, err := p.ParseBytes(raw); err == nil && string(v.GetStringBytes("type")) == "result" {
				d.ended = true
			}
		}
		return false
	}
	v, err := p.ParseBytes(raw)
	if err != nil {
		return false
	}
	l := lineOf(v)
	at := l.at()
	if at.IsZero() {
		return false
	}
	var sig tally.Signal
	over := false
	switch string(l.typ) {
	case "assistant":
		sig = tally.SignalWaiting
		switch string(v.GetStringBytes("message", "stop_reason")) {
		case "tool_use":
			sig = tally.SignalWorking
		case "end_turn":
			over = true // the model's own end of its turn
		}
		var text []byte
		for _, b := range v.GetArray("message", "content") {
			switch string(b.GetStringBytes("type")) {
			case "tool_use":
				sig = tally.SignalWorking
			case "text":
				text = b.GetStringBytes("text")
			}
		}
		if sig == tally.SignalWaiting && tally.Asks(text) {
			sig = tally.SignalAsking
		}
	case "user":
		sig = tally.SignalWorking
	default:
		emit(tally.Event{Kind: tally.EventMeta, At: at})
		return false
	}
	if d.ended {
		sig = tally.SignalEnded
	}
	emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: tally.Meta{Signal: sig, TurnOver: over}})
	return true
}
