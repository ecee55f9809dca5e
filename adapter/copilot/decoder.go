package copilot

import (
	"bytes"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
	"github.com/valyala/fastjson"
)

const op = "copilot.Decoder"

// NewDecoder reads a session's events.jsonl. It keeps no state: every line
// says all it means.
func (a *Adapter) NewDecoder(f tally.FileInfo, _ []byte) (tally.Decoder, error) {
	return &Decoder{session: f.Session}, nil
}

// Decoder reads events.jsonl, one event per line: {type, data, id,
// timestamp, parentId}.
type Decoder struct {
	session string
	p       fastjson.Parser
	parsed  int64
}

var _ tally.ParseCounter = (*Decoder)(nil)

func (d *Decoder) State() []byte { return nil }
func (d *Decoder) Parsed() int64 { return d.parsed }

// read are the event types Tally reads; every other line (the system
// prompt, usage records, turn marks) is passed over from its first bytes.
var read = map[string]bool{
	"session.start": true, "session.resume": true, "session.shutdown": true, "user.message": true,
	"assistant.message": true, "tool.execution_start": true, "tool.execution_complete": true,
	"permission.requested": true, "user_input.requested": true, "elicitation.requested": true, "abort": true,
}

var typePrefix = []byte(`{"type":"`)

// lineType is the type a line starts with, as Copilot writes it; ok is
// false for a line laid out otherwise, which is parsed to find out.
func lineType(line []byte) (string, bool) {
	if !bytes.HasPrefix(line, typePrefix) {
		return "", false
	}
	rest := line[len(typePrefix):]
	i := bytes.IndexByte(rest[:min(len(rest), 64)], '"')
	if i < 0 {
		return "", false
	}
	return string(rest[:i]), true
}

func (d *Decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if t, ok := lineType(line); ok && !read[t] {
		return nil
	}
	d.parsed++
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "offset %d: not JSON: %v", off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return tally.Errorf(tally.CodeInvalid, op, "offset %d: not an event object", off)
	}
	typ := string(v.GetStringBytes("type"))
	data := v.Get("data")
	if data == nil || data.Type() != fastjson.TypeObject {
		if read[typ] && typ != "abort" {
			return tally.Errorf(tally.CodeInvalid, op, "offset %d: %s without data", off, typ)
		}
		data = &fastjson.Value{}
	}
	at, _ := time.Parse(time.RFC3339Nano, string(v.GetStringBytes("timestamp")))
	var repair string
	if !utf8.Valid(line) {
		repair = tally.RepairNotUTF8
	}
	meta := func(m tally.Meta) { emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: m, Repair: repair}) }
	switch typ {
	case "session.start":
		meta(tally.Meta{SessionID: str(data, "sessionId"), Project: str(data, "context", "cwd")})
	case "session.resume":
		meta(tally.Meta{Project: str(data, "context", "cwd"), Signal: tally.SignalWorking})
	case "session.shutdown":
		meta(tally.Meta{Signal: tally.SignalEnded})
	case "user.message":
		meta(tally.Meta{Title: tally.PromptTitle(str(data, "content")), TitleWeak: true, Signal: tally.SignalWorking})
	case "assistant.message":
		sig := tally.SignalWaiting
		switch reqs := data.GetArray("toolRequests"); {
		case len(reqs) > 0:
			sig = tally.SignalWorking
		case tally.Asks(data.GetStringBytes("content")):
			sig = tally.SignalAsking
		}
		meta(tally.Meta{Signal: sig})
	case "tool.execution_start":
		var in toolrun.Input
		if args := data.Get("arguments"); args != nil {
			in = toolrun.InputOf(args.MarshalTo(nil))
		}
		toolrun.Start(emit, str(data, "toolCallId"), str(data, "toolName"), in, at)
		meta(tally.Meta{Signal: tally.SignalWorking})
	case "tool.execution_complete":
		toolrun.End(emit, str(data, "toolCallId"), !data.GetBool("success"), at)
		meta(tally.Meta{Signal: tally.SignalWorking})
	case "permission.requested", "user_input.requested", "elicitation.requested":
		meta(tally.Meta{Signal: tally.SignalAsking})
	case "abort":
		meta(tally.Meta{Signal: tally.SignalWaiting})
	}
	return nil
}

func str(v *fastjson.Value, keys ...string) string { return string(v.GetStringBytes(keys...)) }
