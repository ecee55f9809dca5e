package hermes

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
)

// op names where a line's error comes from, for the person reading it:
// the agent, as every adapter does.
const op = string(Agent)

// maxPending bounds the todo calls a stream decoder remembers while they
// wait for their result; Hermes answers each call right after it.
const maxPending = 64

// streamDecoder reads the stream form: one chat message per line (see
// doc.go). A todo call is applied from its arguments when its line is
// read, then replaced by the list its result returned.
type streamDecoder struct {
	// pending are the ids of todo calls whose result has not been read.
	pending []string
}

func newStreamDecoder(state []byte) *streamDecoder {
	d := &streamDecoder{}
	if len(state) > 0 && json.Unmarshal(state, &d.pending) != nil {
		d.pending = nil
	}
	if len(d.pending) > maxPending {
		d.pending = d.pending[len(d.pending)-maxPending:]
	}
	return d
}

func (d *streamDecoder) State() []byte {
	if len(d.pending) == 0 {
		return nil
	}
	b, _ := json.Marshal(d.pending)
	return b
}

func (d *streamDecoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	m, w, err := decodeMessage(line, time.Time{})
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return jsonl.NotJSON(Agent, off, err)
	case err != nil:
		return tally.Errorf(tally.CodeInvalid, op, "line at offset %d: %v", off, err)
	}
	emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: w.SessionID, Signal: signalOf(m.role, m.hasCalls)}, At: m.at})
	emitMarkers(m.markers, off, emit)
	for _, fp := range m.fps {
		emit(tally.Event{Kind: tally.EventToolCall, At: m.at, Call: fp})
	}
	for _, c := range m.calls {
		ev, ok, err := callEvent(c, m.at)
		if err != nil {
			return tally.Errorf(tally.CodeInvalid, op, "line at offset %d: todo call %s: %v", off, c.ID, err)
		}
		if ok {
			emit(repaired(ev, m))
		}
		if c.ID != "" && !slices.Contains(d.pending, c.ID) {
			d.pending = append(d.pending, c.ID)
			if len(d.pending) > maxPending {
				d.pending = d.pending[1:]
			}
		}
	}
	if m.role != "tool" {
		return nil
	}
	i := slices.Index(d.pending, m.callID)
	if i < 0 && !isTodoTool(w.ToolName) {
		return nil
	}
	if i >= 0 {
		d.pending = slices.Delete(d.pending, i, i+1)
	}
	items, err := parseResult(m.content)
	if err != nil {
		if err == errFailed {
			return nil
		}
		return tally.Errorf(tally.CodeInvalid, op, "line at offset %d: todo result %s: %v", off, m.callID, err)
	}
	// Its own id: the call's arguments were applied under the call id, and
	// the result must not be taken for a second read of them.
	emit(tally.Event{Kind: tally.EventSnapshot, Items: items, ToolUseID: m.callID + "/result", At: m.at})
	return nil
}

// emitMarkers gives a message's markers, placed at place: a stream line's
// offset, a log's message number, a database row's id.
func emitMarkers(ms []tally.Marker, place int64, emit func(tally.Event)) {
	for _, m := range ms {
		m.Offset = place
		emit(tally.Event{Kind: tally.EventMarker, At: m.At, Marker: m})
	}
}
