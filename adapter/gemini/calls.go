package gemini

import (
	"bytes"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
	"github.com/tallyhq/tally/detect"
)

// Every tool call is fingerprinted (see detect.Fingerprint) so that a
// session calling the same thing again and again is told: in a chat record,
// each entry of a message's toolCalls (its name and args), once however
// often the message is appended again as its calls progress; in
// stream-json, each tool_use (tool_name and parameters). The values are
// hashed as written, unparsed. A $set checkpoint replays history and is
// not read for calls, nor is a legacy .json record.

// maxSeenCalls bounds the call ids remembered so that a message appended
// again is not counted again; calls come a few per message.
const maxSeenCalls = 32

var (
	toolCallsKey = []byte(`"toolCalls":[`)
	streamCall   = []byte(`{"type":"tool_use",`)
)

// stampPrefix is the part of a timestamp compared with CallsFrom's: Gemini
// CLI writes UTC times as JavaScript does, so that the text sorts as the
// time does.
const stampPrefix = "2006-01-02T15:04:05"

// CallsFrom passes over the tool calls of lines stamped before from: a
// line's timestamp is compared as text, and its calls are not read.
func (d *Decoder) CallsFrom(from time.Time) {
	d.callsFrom = from.UTC().Format(stampPrefix)
}

// recent tells whether a line stamped stamp is in the window CallsFrom
// set.
func (d *Decoder) recent(stamp []byte) bool {
	return d.callsFrom == "" || len(stamp) < len(stampPrefix) || string(stamp[:len(stampPrefix)]) >= d.callsFrom
}

// messageCalls adds an EventToolCall for each call of a MessageRecord line
// not counted yet.
func (d *Decoder) messageCalls(line []byte) {
	i := indexC(line, toolCallsKey)
	if i < 0 {
		return
	}
	stamp, _, _ := jsonl.Field(line[1:], "timestamp")
	if len(stamp) < 2 || !d.recent(stamp[1:]) {
		return
	}
	at := parseTime(bytes.Trim(stamp, `"`))
	arr := line[i+len(toolCallsKey):]
	for pos := 0; pos < len(arr) && arr[pos] != ']'; {
		if arr[pos] == ',' {
			pos++
			continue
		}
		n := jsonl.ContainerLen(arr[pos:])
		if n < 0 {
			return
		}
		call := arr[pos+1 : pos+n]
		pos += n
		id, _, _ := jsonl.Field(call, "id")
		name, _, okName := jsonl.Field(call, "name")
		args, _, okArgs := jsonl.Field(call, "args")
		if !okName || !okArgs || len(name) < 2 || name[0] != '"' {
			continue
		}
		d.runtimeCall(call, id, name, args, at)
		if !d.st.newCall(hashID(string(id))) {
			continue
		}
		d.add(tally.Event{Kind: tally.EventToolCall, At: at, Call: detect.Fingerprint(name[1:len(name)-1], args)})
	}
}

// streamCall adds the EventToolCall of a stream-json tool_use line.
func (d *Decoder) streamCall(line []byte) {
	if !bytes.HasPrefix(line, streamCall) {
		return
	}
	obj := line[1:]
	stamp, _, _ := jsonl.Field(obj, "timestamp")
	name, _, okName := jsonl.Field(obj, "tool_name")
	args, _, okArgs := jsonl.Field(obj, "parameters")
	if !okName || !okArgs || len(name) < 2 || name[0] != '"' || len(stamp) < 2 || !d.recent(stamp[1:]) {
		return
	}
	d.add(tally.Event{Kind: tally.EventToolCall, At: parseTime(bytes.Trim(stamp, `"`)), Call: detect.Fingerprint(name[1:len(name)-1], args)})
}

// newCall remembers a call id and tells whether it was new.
func (s *state) newCall(h uint64) bool {
	for _, c := range s.Calls {
		if c == h {
			return false
		}
	}
	s.Calls = append(s.Calls, h)
	if len(s.Calls) > maxSeenCalls {
		s.Calls = s.Calls[1:]
	}
	return true
}

// indexC finds needle by its 'C', rarer in a message's text than the
// quote it starts with.
func indexC(s, needle []byte) int {
	k := bytes.IndexByte(needle, 'C')
	for i := k; i < len(s); i++ {
		j := bytes.IndexByte(s[i:], 'C')
		if j < 0 {
			return -1
		}
		i += j
		if start := i - k; start >= 0 && bytes.HasPrefix(s[start:], needle) {
			return start
		}
	}
	return -1
}

// runtimeCall is the runtime progress (package toolrun) of one call of a
// message, in a session that may still be going (a window set, as the
// indexer sets it; history has none): running until the message is
// appended again with the call's final status, success (completed), error
// (failed) or cancelled (over, not failed). A message appended again
// starts nothing twice: the runtime list knows the call by its id.
func (d *Decoder) runtimeCall(call, id, name, args []byte, at time.Time) {
	if d.callsFrom == "" || len(id) < 3 || id[0] != '"' {
		return
	}
	cid := string(id[1 : len(id)-1])
	toolrun.Start(d.add, cid, string(name[1:len(name)-1]), toolrun.InputOf(args), at)
	switch st, _, _ := jsonl.Field(call, "status"); string(st) {
	case `"success"`, `"cancelled"`:
		toolrun.End(d.add, cid, false, at)
	case `"error"`:
		toolrun.End(d.add, cid, true, at)
	}
}
