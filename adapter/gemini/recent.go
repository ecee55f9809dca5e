package gemini

import (
	"bytes"

	"github.com/tallyhq/tally"
)

// Recent reads activity from the newest lines, newest first: every
// timestamped line gives the time, and the newest line that tells whose
// turn it is ends the walk. Chat records: see chatSignal; $set and header
// lines only carry time. Stream-json: a result ends the turn, anything
// else the agent does means it works.
func (d *Decoder) Recent(line []byte, emit func(tally.Event)) bool {
	if d.info.Layout == tally.LayoutWhole {
		return true
	}
	if !bytes.Contains(line, timeNeedle) && !bytes.Contains(line, updatedNeedle) {
		return false
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return false
	}
	at := timeOf(v, "timestamp")
	sig, over := tally.SignalNone, false
	switch {
	case v.Get("$set") != nil:
		at = timeOf(v.Get("$set"), "lastUpdated")
	case v.Get("id") != nil:
		sig, over = chatSignal(v)
	case v.Get("sessionId") != nil:
		at = timeOf(v, "lastUpdated")
	default:
		switch string(v.GetStringBytes("type")) {
		case streamResult:
			sig, over = tally.SignalWaiting, true
		case streamInit, streamMessage, streamToolUse, streamToolResult:
			sig = tally.SignalWorking
		}
	}
	if at.IsZero() {
		return false
	}
	emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: tally.Meta{Signal: sig, TurnOver: over}})
	return sig != tally.SignalNone
}
