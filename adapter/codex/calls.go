package codex

import (
	"bytes"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/detect"
)

// Every tool call of a rollout is fingerprinted (see detect.Fingerprint)
// so that a session calling the same thing again and again is told. A call
// is a response_item whose payload is a function_call (its arguments a
// JSON string), a custom_tool_call (its input a string) or a
// local_shell_call (its action an object); the value is hashed as written,
// escapes and all, without parsing it.

// callKinds are the payload types of tool calls, with the key of what the
// call was asked to do.
var callKinds = []struct{ typ, args string }{
	{`function_call"`, "arguments"},
	{`custom_tool_call"`, "input"},
	{`local_shell_call"`, "action"},
}

const (
	stampKey    = `{"timestamp":"`
	itemPayload = `"type":"response_item","payload":{`
)

// rolloutHead is how far into a line the envelope's keys (timestamp,
// ordinal, type) are looked for.
const rolloutHead = 160

// stampPrefix is the part of a timestamp compared with CallsFrom's: Codex
// writes UTC times to the millisecond, 2026-11-22T14:06:40.725Z, so that
// the text sorts as the time does.
const stampPrefix = "2006-01-02T15:04:05"

// CallsFrom passes over the tool calls of lines stamped before from: a
// line's timestamp is compared as text, and its call is not read.
func (d *decoder) CallsFrom(from time.Time) {
	d.callsFrom = from.UTC().Format(stampPrefix)
}

// callOf is the EventToolCall of a rollout line that records a tool call,
// timed by the line's timestamp; ok is false for any other line.
func (d *decoder) callOf(line []byte) (ev tally.Event, ok bool) {
	stamp, ok := bytes.CutPrefix(line, []byte(stampKey))
	if !ok {
		return ev, false
	}
	q := bytes.IndexByte(stamp, '"')
	if q < len(stampPrefix) {
		return ev, false
	}
	stamp = stamp[:q]
	if d.callsFrom != "" && string(stamp[:len(stampPrefix)]) < d.callsFrom {
		return ev, false
	}
	head := line[:min(len(line), rolloutHead)]
	p := bytes.Index(head, []byte(itemPayload))
	if p < 0 {
		return ev, false
	}
	body := line[p+len(itemPayload):]
	typ, _, ok := jsonl.Field(body, "type")
	if !ok || len(typ) < 2 {
		return ev, false
	}
	for _, k := range callKinds {
		if string(typ[1:]) != k.typ {
			continue
		}
		name, _, _ := jsonl.Field(body, "name")
		if k.typ == `local_shell_call"` {
			name = []byte(`"local_shell"`)
		}
		args, _, ok := jsonl.Field(body, k.args)
		if len(name) < 2 || name[0] != '"' || !ok {
			return ev, false
		}
		at, _ := time.Parse(time.RFC3339Nano, string(stamp))
		return tally.Event{Kind: tally.EventToolCall, At: at, Call: detect.Fingerprint(name[1:len(name)-1], args)}, true
	}
	return ev, false
}
