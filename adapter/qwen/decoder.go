package qwen

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
	"github.com/valyala/fastjson"
)

const op = "qwen.Decoder"

// NewDecoder reads a todo file (whole) or a chat record (line by line).
// Neither keeps state.
func (a *Adapter) NewDecoder(f tally.FileInfo, _ []byte) (tally.Decoder, error) {
	if f.Layout == tally.LayoutWhole {
		return &todoDecoder{session: f.Session}, nil
	}
	return &chatDecoder{}, nil
}

// todoDecoder reads todos/<sessionId>.json, {planId, todos: [{id, content,
// status, blockedBy}], sessionId}: the whole list, as todo_write wrote it
// (writeTodosToFile).
type todoDecoder struct {
	session string
	p       fastjson.Parser
}

func (d *todoDecoder) State() []byte { return nil }

func (d *todoDecoder) Line(doc []byte, off int64, emit func(tally.Event)) error {
	v, err := d.p.ParseBytes(doc)
	if err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "todo file: not JSON: %v", err)
	}
	todos := v.Get("todos")
	if v.Type() != fastjson.TypeObject || todos == nil || todos.Type() != fastjson.TypeArray {
		return tally.Errorf(tally.CodeInvalid, op, "todo file: no todos array")
	}
	arr, _ := todos.Array()
	items := make([]tally.Item, 0, len(arr))
	for _, t := range arr {
		it := tally.Item{ID: str(t, "id"), Title: str(t, "content")}
		it.Status, it.RawStatus = status(str(t, "status"))
		for _, b := range t.GetArray("blockedBy") {
			if s := b.GetStringBytes(); len(s) > 0 {
				it.BlockedBy = append(it.BlockedBy, string(s))
			}
		}
		items = append(items, it)
	}
	var repair string
	if !utf8.Valid(doc) {
		repair = tally.RepairNotUTF8
	}
	if id := str(v, "sessionId"); id != "" {
		emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: id}})
	}
	emit(tally.Event{Kind: tally.EventSnapshot, Items: items, Repair: repair})
	return nil
}

// statusWords are todo_write's statuses: no cancelled (an item dropped is
// left out of the next list).
var statusWords = map[string]tally.Status{
	"pending": tally.StatusPending, "in_progress": tally.StatusInProgress, "completed": tally.StatusCompleted,
}

func status(word string) (tally.Status, string) {
	if s, ok := statusWords[word]; ok {
		return s, ""
	}
	return tally.StatusUnknown, word
}

// chatDecoder reads a chat record, projects/<slug>/chats/<sessionId>.jsonl:
// one JSON object per line with uuid, sessionId, timestamp, type, cwd and,
// by type, message (user, assistant, tool_result) or subtype (system).
// The list is not read here (the todo file is the list); the record gives
// the session's facts and its runtime progress.
type chatDecoder struct {
	p      fastjson.Parser
	parsed int64
}

var _ tally.ParseCounter = (*chatDecoder)(nil)

func (d *chatDecoder) State() []byte { return nil }
func (d *chatDecoder) Parsed() int64 { return d.parsed }

var (
	typeKey     = []byte(`"type":"`)
	telemetry   = []byte(`"subtype":"ui_telemetry"`)
	attribution = []byte(`"subtype":"attribution_snapshot"`)
)

// skip tells, from the line's first bytes, a system line Tally does not
// read: telemetry and attribution snapshots, most of a record's lines.
func skip(line []byte) bool {
	head := line[:min(len(line), 400)]
	i := bytes.Index(head, typeKey)
	if i < 0 || !bytes.HasPrefix(head[i+len(typeKey):], []byte(`system"`)) {
		return false
	}
	return bytes.Contains(head, telemetry) || bytes.Contains(head, attribution)
}

func (d *chatDecoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if skip(line) {
		return nil
	}
	d.parsed++
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "offset %d: not JSON: %v", off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return tally.Errorf(tally.CodeInvalid, op, "offset %d: not a record object", off)
	}
	at, _ := time.Parse(time.RFC3339Nano, str(v, "timestamp"))
	var repair string
	if !utf8.Valid(line) {
		repair = tally.RepairNotUTF8
	}
	m := tally.Meta{SessionID: str(v, "sessionId"), Project: str(v, "cwd")}
	parts := v.GetArray("message", "parts")
	switch str(v, "type") {
	case "user":
		m.Signal = tally.SignalWorking
		if t := text(parts); t != "" {
			m.Title, m.TitleWeak = tally.PromptTitle(t), true
		}
	case "assistant":
		m.Signal = tally.SignalWaiting
		calls := false
		for _, p := range parts {
			fc := p.Get("functionCall")
			if fc == nil {
				continue
			}
			calls = true
			var in toolrun.Input
			if args := fc.Get("args"); args != nil {
				in = toolrun.InputOf(args.MarshalTo(nil))
			}
			toolrun.Start(emit, str(fc, "id"), str(fc, "name"), in, at)
		}
		switch {
		case calls:
			m.Signal = tally.SignalWorking
		case tally.Asks([]byte(text(parts))):
			m.Signal = tally.SignalAsking
		}
	case "tool_result":
		m.Signal = tally.SignalWorking
		if r := v.Get("toolCallResult"); r != nil {
			// status: success, error, cancelled (absent in the ACP
			// recorder's records but for an error).
			toolrun.End(emit, str(r, "callId"), str(r, "status") == "error", at)
		}
	case "system":
		if str(v, "subtype") == "custom_title" {
			m.Title = str(v, "customTitle")
		}
	default:
		return nil
	}
	emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: m, Repair: repair})
	return nil
}

func text(parts []*fastjson.Value) string {
	var b strings.Builder
	for _, p := range parts {
		if t := p.GetStringBytes("text"); len(t) > 0 && !p.GetBool("thought") {
			b.Write(t)
		}
	}
	return b.String()
}

func str(v *fastjson.Value, keys ...string) string { return string(v.GetStringBytes(keys...)) }
