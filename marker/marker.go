package marker

import (
	"bytes"
	"time"

	"github.com/tallyhq/tally"
)

// Verb is what a marker says happened to its task or step.
type Verb string

// The four verbs: a task (or step) started, a step done (the next one
// starts), a step blocked (a notice: it stays in progress until done), and
// a quick task promoted to planned work.
const (
	VerbStart    Verb = "start"
	VerbDone     Verb = "done"
	VerbBlocked  Verb = "blocked"
	VerbPromoted Verb = "promoted"
)

// ParseVerb accepts exactly the four verbs, lowercase.
func ParseVerb(word string) (Verb, bool) {
	switch v := Verb(word); v {
	case VerbStart, VerbDone, VerbBlocked, VerbPromoted:
		return v, true
	}
	return "", false
}

// MaxID bounds a task or step id: ids look like "T001" and "S1"; a longer
// run of id characters is prose, not a marker.
const MaxID = 64

// MaxReason bounds the reason kept from a blocked marker; the rest of a
// very long line is cut off.
const MaxReason = 512

var keyword = []byte("progress:")

// Maybe is the cheap check an adapter makes on a raw log line before it
// parses the line for its text: false means the line holds no marker, in
// any JSON string of it. (The keyword is plain ASCII, so JSON writes it as
// is.) It is true exactly when the line holds "progress:".
//
// Every adapter runs it on every line it might take text from, so it is
// the scan's hot path: it skips from colon to colon and looks back for
// "progress". In transcripts a colon is rarer than the keyword's first
// letter, and the look back fails at once on a JSON key (`":`), so it
// runs about twice as fast as bytes.Contains over captured logs.
func Maybe(line []byte) bool {
	const n = len("progress")
	for i := n; i < len(line); {
		j := bytes.IndexByte(line[i:], ':')
		if j < 0 {
			return false
		}
		i += j
		if line[i-1] == 's' && bytes.Equal(line[i-n:i], keyword[:n]) {
			return true
		}
		i++
	}
	return false
}

// Append appends the markers of text to dst, as read from the log line at
// offset off, written at at. dst holds the markers already found in the
// same line (in its earlier text blocks), so each new marker's Index is
// its place among the line's markers.
func Append(dst []tally.Marker, text []byte, off int64, at time.Time) []tally.Marker {
	for _, m := range Scan(text) {
		m.Offset, m.Index, m.At = off, len(dst), at
		dst = append(dst, m)
	}
	return dst
}

// Scan returns the markers of text in order. It never fails: a line that is
// not a marker is simply not one.
func Scan(text []byte) []tally.Marker {
	if !bytes.Contains(text, keyword) {
		return nil // most messages: one fast pass, no line splitting
	}
	var out []tally.Marker
	for len(text) > 0 {
		line := text
		if nl := bytes.IndexByte(text, '\n'); nl >= 0 {
			line, text = text[:nl], text[nl+1:]
		} else {
			text = nil
		}
		if m, ok := parseLine(line); ok {
			out = append(out, m)
		}
	}
	return out
}

func parseLine(line []byte) (tally.Marker, bool) {
	line = bytes.TrimRight(skipSpace(line), " \t\r")
	rest, ok := bytes.CutPrefix(line, keyword)
	if !ok {
		return tally.Marker{}, false
	}
	rest = skipSpace(rest)
	task, rest := takeID(rest)
	if task == "" {
		return tally.Marker{}, false
	}
	var step string
	if len(rest) > 0 && rest[0] == '.' {
		step, rest = takeID(rest[1:])
		if step == "" {
			return tally.Marker{}, false
		}
	}
	if len(rest) == 0 || !isSpace(rest[0]) {
		return tally.Marker{}, false
	}
	rest = skipSpace(rest)
	word, rest := takeWord(rest)
	verb, ok := ParseVerb(word)
	if !ok {
		return tally.Marker{}, false
	}
	m := tally.Marker{Task: task, Step: step, Verb: string(verb)}
	rest = skipSpace(rest)
	switch {
	case len(rest) == 0:
		return m, true
	case rest[0] == ':':
		reason := skipSpace(rest[1:])
		if len(reason) > MaxReason {
			reason = reason[:MaxReason]
		}
		m.Reason = string(bytes.ToValidUTF8(reason, []byte("\uFFFD")))
		return m, true
	}
	return tally.Marker{}, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func skipSpace(b []byte) []byte {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return b[i:]
}

// isIDByte is the id alphabet: letters, digits, '_' and '-'. '.' separates
// task from step, so it is not in it.
func isIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func takeID(b []byte) (string, []byte) {
	i := 0
	for i < len(b) && isIDByte(b[i]) {
		i++
	}
	if i == 0 || i > MaxID {
		return "", b
	}
	return string(b[:i]), b[i:]
}

// takeWord reads a verb: lowercase letters only, as the verbs are spelt.
func takeWord(b []byte) (string, []byte) {
	i := 0
	for i < len(b) && b[i] >= 'a' && b[i] <= 'z' && i <= len(VerbPromoted) {
		i++
	}
	return string(b[:i]), b[i:]
}

// MaxHeld bounds the unfinished line of streamed text a Chunks holds. A
// marker is one short line; a longer run of text with no newline is cut
// to this many bytes.
const MaxHeld = 4096

// Chunks finds the markers of a message that arrives in pieces (a streamed
// reply): a marker is found once its line is complete, or when the message
// ends (Flush). Each is placed at the line whose piece completed it. A
// Chunks is plain data, so a decoder keeps it in its saved state.
type Chunks struct {
	// Held is the message's unfinished last line.
	Held []byte `json:"held,omitempty"`
	// Off and At are the offset and time of the line Held's last piece
	// came from.
	Off int64     `json:"off,omitempty"`
	At  time.Time `json:"at,omitzero"`
}

// Add takes the next piece of the message, read from the line at offset
// off written at at, and returns the markers of the lines it completes.
func (c *Chunks) Add(piece []byte, off int64, at time.Time) []tally.Marker {
	c.Held = append(c.Held, piece...)
	c.Off, c.At = off, at
	var found []tally.Marker
	if last := bytes.LastIndexByte(c.Held, '\n'); last >= 0 {
		found = Append(nil, c.Held[:last+1], off, at)
		c.Held = append(c.Held[:0], c.Held[last+1:]...)
	}
	if len(c.Held) > MaxHeld {
		c.Held = c.Held[:MaxHeld]
	}
	return found
}

// Flush ends the message: the markers of its unfinished line.
func (c *Chunks) Flush() []tally.Marker {
	if len(c.Held) == 0 {
		return nil
	}
	found := Append(nil, c.Held, c.Off, c.At)
	*c = Chunks{Held: c.Held[:0]}
	return found
}
