package claude

import (
	"bytes"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/detect"
)

// Every tool call of every assistant line is fingerprinted (name and input,
// see detect.Fingerprint) so that a session calling the same thing again
// and again is told. It is done from the bytes, without parsing: assistant
// lines are a large part of a transcript (a Write's input is a whole file),
// and the fold must keep up with them. The message's content array is
// searched for tool_use blocks, each read key by key, its strings skipped
// quote to quote.

var (
	messageKey   = []byte(`"message":{`)
	roleKey      = []byte(`"role":"`)
	assistantVal = []byte(`assistant"`)
	contentKey   = []byte(`"content":[`)
	toolUseBlock = []byte(`{"type":"tool_use",`)
)

// callHeadLen is how far into a line the message's role is looked for: a
// 1.0.x line writes cwd, session id and version before the message.
const callHeadLen = 768

// maxKeyGap bounds the bytes between a message's start and its role, and
// between the role and the content array (id, type and model come
// between).
const maxKeyGap = 200

// assistantContent finds the content array of an assistant message of the
// line's own, and returns where its elements start; -1 if the line is not
// one. The message must be the line's first nested object, and its role
// assistant: every format Claude Code writes puts the message first (after
// ids, cwd, version), while a line that relays another agent's message
// inside its data (a progress line) or repeats messages in an API request
// log has something else first. Most lines are told from one IndexByte.
func assistantContent(line []byte) int {
	h := line[:min(len(line), callHeadLen)]
	i := bytes.IndexByte(h[min(len(h), 1):], '{') + 2
	if i < 2 || i < len(messageKey) || !bytes.Equal(h[i-len(messageKey):i], messageKey) {
		return -1
	}
	rest := line[i:]
	j := bytes.Index(rest[:min(len(rest), maxKeyGap)], roleKey)
	if j < 0 || bytes.IndexByte(rest[:j], '{') >= 0 || !bytes.HasPrefix(rest[j+len(roleKey):], assistantVal) {
		return -1
	}
	from := i + j + len(roleKey)
	rest = line[from:]
	k := bytes.Index(rest[:min(len(rest), maxKeyGap)], contentKey)
	if k < 0 {
		k = bytes.Index(rest, contentKey) // a long model name, or keys in another order
		if k < 0 {
			return -1
		}
	}
	return from + k + len(contentKey)
}

// CallsFrom passes over the tool calls of lines stamped before from: a
// line's timestamp is compared as text, and its blocks are not read.
func (d *Decoder) CallsFrom(from time.Time) {
	d.callsFrom = from.UTC().Format(stampPrefix)
}

// stampPrefix is the part of a timestamp compared with CallsFrom's: Claude
// Code writes UTC times as JavaScript does, 2026-11-23T16:55:50.202Z, so
// that the text sorts as the time does.
const stampPrefix = "2006-01-02T15:04:05"

// callEvents emits an EventToolCall for each tool_use block of an
// assistant line, timed by the line's timestamp. Blocks of other kinds
// (text, thinking) are jumped over by searching for the next tool_use
// block, which skips prose at the speed of IndexByte. A line whose blocks
// do not end as JSON must (cut short, garbled) gives none, and so does a
// line from before the window CallsFrom set.
// start is where the line's assistant content begins (assistantContent),
// -1 on any other line.
func (d *Decoder) callEvents(line []byte, start int, emit func(tally.Event)) {
	if len(line) == 0 || line[len(line)-1] != '}' {
		return
	}
	if start < 0 {
		return
	}
	// The line's timestamp comes after the content, where Claude Code
	// writes it: the last one in the line is its own, whatever a tool's
	// input holds.
	stamp := lineStamp(line[max(start, len(line)-timeTail):])
	if stamp == nil {
		stamp = lineStamp(line[:start])
	}
	if d.callsFrom != "" && len(stamp) >= len(stampPrefix) && string(stamp[:len(stampPrefix)]) < d.callsFrom {
		return
	}
	var fps [8]uint64
	calls := fps[:0]
	for pos := start; pos < len(line) && line[pos] != ']'; {
		i := bytes.Index(line[pos:], toolUseBlock)
		if i < 0 {
			break
		}
		n, fp, ok := block(line[pos+i:])
		if !ok {
			return
		}
		calls = append(calls, fp)
		pos += i + n
	}
	if len(calls) == 0 {
		return
	}
	var at time.Time
	if stamp != nil {
		at, _ = time.Parse(time.RFC3339Nano, string(stamp))
	}
	for _, fp := range calls {
		emit(tally.Event{Kind: tally.EventToolCall, List: d.info.List, At: at, Call: fp})
	}
}

// block reads a tool_use block (an object) from its '{': the call's
// fingerprint, and where its input ends, from which the next block is
// looked for. ok is false when it has no name or input, or they do not
// read as JSON.
func block(b []byte) (end int, fp uint64, ok bool) {
	name, _, ok := jsonl.Field(b[1:], "name")
	if !ok || len(name) < 2 || name[0] != '"' {
		return 0, 0, false
	}
	input, end, ok := jsonl.Field(b[1:], "input")
	if !ok {
		return 0, 0, false
	}
	return 1 + end, detect.Fingerprint(name[1:len(name)-1], input), true
}

// timeTail is how far from a line's end its timestamp is looked for: it
// is the last key but one or two.
const timeTail = 1024

// lineStamp is the value of the last timestamp key in part, nil if none.
func lineStamp(part []byte) []byte {
	i := bytes.LastIndex(part, timestampNeedle)
	if i < 0 {
		return nil
	}
	rest := part[i+len(timestampNeedle):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 {
		return nil
	}
	return rest[:j]
}
