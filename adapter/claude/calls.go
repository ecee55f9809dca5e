package claude

import (
	"bytes"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
	"github.com/tallyhq/tally/detect"
)

// Every tool call of every assistant line is fingerprinted (name and input,
// see detect.Fingerprint) so that a session calling the same thing again
// and again is told. It is done from the bytes, without parsing: assistant
// lines are a large part of a transcript (a Write's input is a whole file),
// and the fold must keep up with them. The look at the line (lookAt)
// found each tool_use block's name and input on its way through the
// message's content.

// CallsFrom passes over the tool calls of lines stamped before from: a
// line's timestamp is compared as text, and its calls are not hashed.
func (d *Decoder) CallsFrom(from time.Time) {
	d.callsFrom = from.UTC().Format(stampPrefix)
}

// stampPrefix is the part of a timestamp compared with CallsFrom's: Claude
// Code writes UTC times as JavaScript does, 2026-11-23T16:55:50.202Z, so
// that the text sorts as the time does.
const stampPrefix = "2006-01-02T15:04:05"

// callEvents emits an EventToolCall for each tool_use block of an
// assistant line (as lookAt found them), timed by the line's timestamp.
// A line whose blocks do not end as JSON must (cut short, garbled) gives
// none, and so does a line from before the window CallsFrom set.
func (d *Decoder) callEvents(line []byte, lk *look, emit func(tally.Event)) {
	if len(lk.calls) == 0 || line[len(line)-1] != '}' {
		return
	}
	// The line's timestamp comes after the content, where Claude Code
	// writes it: the last one in the line is its own, whatever a tool's
	// input holds.
	stamp := lineStamp(line[max(lk.content, len(line)-timeTail):])
	if stamp == nil {
		stamp = lineStamp(line[:lk.content])
	}
	if d.callsFrom != "" && len(stamp) >= len(stampPrefix) && string(stamp[:len(stampPrefix)]) < d.callsFrom {
		return
	}
	var at time.Time
	if stamp != nil {
		at, _ = time.Parse(time.RFC3339Nano, string(stamp))
	}
	for _, c := range lk.calls {
		name := c.name[1 : len(c.name)-1]
		fp := detect.Fingerprint(name, c.input)
		emit(tally.Event{Kind: tally.EventToolCall, List: d.info.List, At: at, Call: fp})
		// Runtime progress, for a session that may still be going (the
		// indexer's window, CallsFrom): the call runs until its result,
		// which the decoder then awaits (results), so only the calls of
		// the window cost a parse of their result's line, and history
		// none.
		if d.callsFrom != "" && len(c.id) > 2 && c.id[0] == '"' {
			id := string(c.id[1 : len(c.id)-1])
			toolrun.Start(emit, id, string(name), toolrun.InputOf(c.input), at)
			d.await(pendingCall{ID: id, List: d.info.List, Runtime: true})
		}
	}
}

// timeTail is how far from a line's end its timestamp is looked for: it
// is the last key but one or two.
const timeTail = 1024

// lineStamp is the value of the last timestamp key in part, nil if none.
// It is searched backwards from the key's 'p', a byte the line's last
// keys hold few of (bytes.LastIndex would hash every byte on the way).
func lineStamp(part []byte) []byte {
	const p = len(`"timestam`)
	i := len(part)
	for {
		i = bytes.LastIndexByte(part[:i], 'p')
		if i < p {
			return nil
		}
		if bytes.HasPrefix(part[i-p:], timestampNeedle) {
			break
		}
	}
	rest := part[i-p+len(timestampNeedle):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 {
		return nil
	}
	return rest[:j]
}
