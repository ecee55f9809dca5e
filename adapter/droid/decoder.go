package droid

import (
	"bytes"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// decoder reads one session log.
type decoder struct {
	p fastjson.Parser
	// started: a line's time was reported, so the session's start is
	// known and later lines' times are left to Recent.
	started bool
}

var (
	_ tally.Decoder  = (*decoder)(nil)
	_ tally.Recenter = (*decoder)(nil)
)

func newDecoder(state []byte) (*decoder, error) {
	return &decoder{started: len(state) > 0}, nil
}

// State remembers only that the start was seen.
func (d *decoder) State() []byte {
	if d.started {
		return []byte("1")
	}
	return nil
}

// kind is a line's type, read from its first key: Droid writes
// {"type":"…", first.
type kind uint8

const (
	kindOther kind = iota
	kindStart
	kindMessage
	kindTodos
	kindOutcome
)

var kinds = []struct {
	prefix string
	k      kind
}{
	{`{"type":"message"`, kindMessage},
	{`{"type":"todo_state"`, kindTodos},
	{`{"type":"session_start"`, kindStart},
	{`{"type":"agent_turn_outcome"`, kindOutcome},
}

func kindOf(line []byte) kind {
	for _, k := range kinds {
		if bytes.HasPrefix(line, []byte(k.prefix)) {
			return k.k
		}
	}
	return kindOther
}

var assistantRole = []byte(`"role":"assistant"`)

func (d *decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	k := kindOf(line)
	switch k {
	case kindStart, kindTodos:
	case kindMessage:
		if !d.started {
			d.start(line, emit)
		}
		if !marker.Maybe(line) || !bytes.Contains(line, assistantRole) {
			return nil
		}
	default:
		return nil
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	at := stamp(v)
	switch k {
	case kindStart:
		return sessionStart(v, emit)
	case kindTodos:
		return todoState(v, at, emit)
	case kindMessage:
		msg := v.Get("message")
		if string(msg.GetStringBytes("role")) != "assistant" {
			return nil
		}
		var found []tally.Marker
		for _, c := range msg.GetArray("content") {
			if string(c.GetStringBytes("type")) == "text" {
				found = marker.Append(found, c.GetStringBytes("text"), off, at)
			}
		}
		for _, m := range found {
			emit(tally.Event{Kind: tally.EventMarker, At: at, Marker: m})
		}
	}
	return nil
}

// start reports the first message's time, read from its bytes: the log's
// first line (session_start) has none.
func (d *decoder) start(line []byte, emit func(tally.Event)) {
	ts, _, ok := jsonl.Field(line[1:], "timestamp")
	if !ok || len(ts) < 2 || ts[0] != '"' {
		return
	}
	t, err := time.Parse(time.RFC3339Nano, string(ts[1:len(ts)-1]))
	if err != nil {
		return
	}
	d.started = true
	emit(tally.Event{Kind: tally.EventMeta, At: t})
}

// sessionStart: {"type":"session_start","id","title","owner","version",
// "cwd","hostId","isSessionTitleManuallySet"}.
func sessionStart(v *fastjson.Value, emit func(tally.Event)) error {
	m := tally.Meta{
		SessionID: string(v.GetStringBytes("id")),
		Project:   string(v.GetStringBytes("cwd")),
		Title:     string(v.GetStringBytes("title")),
		TitleWeak: !v.GetBool("isSessionTitleManuallySet"),
	}
	if m.Title != "" && m.TitleWeak {
		m.Title = tally.PromptTitle(m.Title)
	}
	emit(tally.Event{Kind: tally.EventMeta, Meta: m})
	return nil
}

// todoState: {"type":"todo_state","id","timestamp","todos":{"todos":[{id,
// status, content, priority}]},"messageIndex"}, the whole list.
func todoState(v *fastjson.Value, at time.Time, emit func(tally.Event)) error {
	todos := v.Get("todos", "todos")
	if todos == nil || todos.Type() != fastjson.TypeArray {
		return tally.Errorf(tally.CodeInvalid, "droid", "todo_state line without a todos.todos array")
	}
	arr := todos.GetArray()
	items := make([]tally.Item, 0, len(arr))
	for _, t := range arr {
		it := tally.Item{
			ID:     string(t.GetStringBytes("id")),
			Title:  string(t.GetStringBytes("content")),
			Source: tally.SourceTodo,
		}
		it.Status, it.RawStatus = tally.StatusOf(string(t.GetStringBytes("status")))
		items = append(items, it)
	}
	emit(tally.Event{Kind: tally.EventSnapshot, ToolUseID: string(v.GetStringBytes("id")), At: at, Items: items})
	return nil
}

// Recent reads activity from the newest lines: each line's time, and
// whose turn it is from the newest line that says.
func (d *decoder) Recent(line []byte, emit func(tally.Event)) bool {
	k := kindOf(line)
	if k == kindOutcome {
		emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Signal: tally.SignalWaiting}})
		return true
	}
	if k != kindMessage && k != kindTodos {
		return false
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return false
	}
	at := stamp(v)
	sig := tally.SignalWorking
	if k == kindMessage {
		sig = signalOf(v.Get("message"))
	}
	emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: tally.Meta{Signal: sig}})
	return true
}

// signalOf says whose turn a message leaves it: a user's (a prompt, a tool
// result) or an assistant's tool call is work; an assistant's reply with
// no tool call hands the turn back, asking when it ends on a question.
func signalOf(msg *fastjson.Value) tally.Signal {
	if string(msg.GetStringBytes("role")) != "assistant" {
		return tally.SignalWorking
	}
	var last []byte
	for _, c := range msg.GetArray("content") {
		switch string(c.GetStringBytes("type")) {
		case "tool_use":
			return tally.SignalWorking
		case "text":
			last = c.GetStringBytes("text")
		}
	}
	if tally.Asks(last) {
		return tally.SignalAsking
	}
	return tally.SignalWaiting
}

func stamp(v *fastjson.Value) time.Time {
	t, err := time.Parse(time.RFC3339Nano, string(v.GetStringBytes("timestamp")))
	if err != nil {
		return time.Time{}
	}
	return t
}
