package codex

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// maxPending bounds the update_plan calls held for their output. Codex
// answers a call before the model's next request, so more than one or two
// held at once means outputs that will never come; the oldest is dropped.
const maxPending = 16

// decoder reads one file. The file's format is decided per line, so a
// rollout and an exec stream need no configuration.
type decoder struct {
	session string // from the file name; "" for a stream
	st      state
	p       fastjson.Parser // the line
	args    fastjson.Parser // update_plan arguments, a JSON string in the line
	// planTool: Codex's config enables update_plan (Adapter.planTool).
	planTool bool
	off      int64 // the offset of the line being decoded
	// callsFrom: tool calls of lines stamped before it (as text, see
	// CallsFrom) are not fingerprinted; "" fingerprints all.
	callsFrom string
}

var _ tally.CallWindow = (*decoder)(nil)

// state is what survives a restart (Decoder.State).
type state struct {
	// Pending are update_plan calls whose output has not been read yet.
	Pending []pendingPlan `json:"pending,omitempty"`
	// Titled: the first real user message was seen; later ones must not
	// replace its (weak) title.
	Titled bool `json:"titled,omitempty"`
	// Proposed: a plan proposed in Plan mode waits for the user's
	// approval (proposal.go).
	Proposed bool `json:"proposed,omitempty"`
	// Running are the calls of the runtime list waiting for their output
	// (see runtimeOf).
	Running []string `json:"running,omitempty"`
}

// pendingPlan is an update_plan call waiting for Codex's verdict.
type pendingPlan struct {
	CallID string       `json:"callId"`
	Items  []tally.Item `json:"items"`
}

func newDecoder(session string, saved []byte) (*decoder, error) {
	d := &decoder{session: session}
	if len(saved) > 0 {
		if err := json.Unmarshal(saved, &d.st); err != nil {
			return nil, tally.Errorf(tally.CodeInvalid, "codex.NewDecoder", "saved decoder state is unreadable: %v", err)
		}
	}
	return d, nil
}

func (d *decoder) State() []byte {
	if len(d.st.Pending) == 0 && !d.st.Titled && !d.st.Proposed && len(d.st.Running) == 0 {
		return nil
	}
	b, err := json.Marshal(&d.st)
	if err != nil {
		return nil // cannot happen: plain strings and Items
	}
	return b
}

// Line selects the few lines that matter with byte needles and parses only
// those.
func (d *decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	d.off = off
	switch execOf(line) {
	case execThread, execTurn:
		return d.execLine(line, off, emit)
	case execItem:
		if scan(line, nil)&hitTodo == 0 && !(marker.Maybe(line) && bytes.Contains(line, agentMessage)) {
			return nil
		}
		return d.execLine(line, off, emit)
	case execNone:
	}
	if d.planModeLine(line) {
		v, err := d.p.ParseBytes(line)
		if err != nil {
			return jsonl.NotJSON(Agent, off, err)
		}
		d.planModeItem(v, stamp(v), emit)
		return nil
	}
	// A line the decoder finds bad changes nothing, its call included.
	call, isCall := d.callOf(line)
	if classify(line, d.st.Pending, d.st.Titled) == 0 {
		if isCall {
			emit(call)
		}
		d.emitRuntime(line, emit)
		return nil
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if err := d.rolloutLine(v, emit); err != nil {
		return err
	}
	if isCall {
		emit(call)
	}
	d.emitRuntime(line, emit)
	return nil
}

func (d *decoder) hold(p pendingPlan) {
	for i := range d.st.Pending {
		if d.st.Pending[i].CallID == p.CallID {
			d.st.Pending[i] = p
			return
		}
	}
	if len(d.st.Pending) >= maxPending {
		d.st.Pending = append(d.st.Pending[:0], d.st.Pending[1:]...)
	}
	d.st.Pending = append(d.st.Pending, p)
}

// release removes and returns the held call id.
func (d *decoder) release(id string) (pendingPlan, bool) {
	for i, p := range d.st.Pending {
		if p.CallID == id {
			d.st.Pending = append(d.st.Pending[:i], d.st.Pending[i+1:]...)
			return p, true
		}
	}
	return pendingPlan{}, false
}

func invalid(format string, args ...any) error {
	return tally.Errorf(tally.CodeInvalid, "codex", format, args...)
}

// stamp parses a rollout timestamp; a missing or odd one is zero time,
// which the fold ignores.
func stamp(v *fastjson.Value) time.Time {
	t, err := time.Parse(time.RFC3339Nano, string(v.GetStringBytes("timestamp")))
	if err != nil {
		return time.Time{}
	}
	return t
}

// emitRuntime emits the runtime progress of a rollout line (runtimeOf).
func (d *decoder) emitRuntime(line []byte, emit func(tally.Event)) {
	if d.callsFrom == "" {
		return
	}
	for _, ev := range d.runtimeOf(line, nil) {
		emit(ev)
	}
}
