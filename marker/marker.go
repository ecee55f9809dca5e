package marker

import (
	"bytes"
	"encoding/binary"
	"strconv"
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
// is.) It is true exactly when the line holds "progress:" in any case of
// its ASCII letters ("Progress:", "PROGRESS:").
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
		if line[i-1]|0x20 == 's' && binary.LittleEndian.Uint64(line[i-n:i])|fold8 == keyword8 {
			return true
		}
		i++
	}
	return false
}

// keyword8 is "progress" as the 8 bytes Maybe compares at once, fold8 the
// bit that makes each of its letters lowercase (see isKeyword).
var (
	keyword8 = binary.LittleEndian.Uint64(keyword[:8])
	fold8    = uint64(0x2020202020202020)
)

// isKeyword tells whether b is "progress" in any case of its letters. Only
// ASCII folds: a letter's byte with bit 0x20 set is its lowercase, and no
// other byte becomes a lowercase letter by it.
func isKeyword(b []byte) bool {
	for i, c := range b {
		if c|0x20 != keyword[i] {
			return false
		}
	}
	return true
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

// Scan returns the markers of text in order, the unrecognised ones (lines
// meant as markers that are not, see Unrecognised) among them. It never
// fails: a line that is not a marker is simply not one.
func Scan(text []byte) []tally.Marker {
	if !Maybe(text) {
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

// parseLine reads a marker, or an unrecognised one, from line.
func parseLine(line []byte) (tally.Marker, bool) {
	line = bytes.TrimRight(skipSpace(line), " \t\r")
	if i := markup(line); len(line)-i < len(keyword) || line[i]|0x20 != 'p' {
		return tally.Marker{}, false // most lines: not even the keyword's first letter
	}
	m, why := parseMarker(unwrap(line))
	if why == "" {
		return m, true
	}
	if !meant(line) {
		return tally.Marker{}, false
	}
	return Unrecognised(line, why), true
}

// Unrecognised is the marker of a line meant as one that is not: the line
// (cut to MaxReason bytes, made valid UTF-8) and why it is not one.
func Unrecognised(line []byte, why string) tally.Marker {
	if len(line) > MaxReason {
		line = line[:MaxReason]
	}
	return tally.Marker{Line: string(bytes.ToValidUTF8(line, []byte("\uFFFD"))), Reason: why}
}

// unwrap takes off what agents put around a marker that leaves no doubt
// it is one: a list bullet ("- ", "* ", "+ ", "• ", "1. ", "1) ") and a
// pair of backticks around the whole of the rest (the protocol itself
// shows markers as code). line is trimmed of spaces at both ends.
func unwrap(line []byte) []byte {
	line = unbullet(line)
	if len(line) >= 2 && line[0] == '`' && line[len(line)-1] == '`' {
		inner := line[1 : len(line)-1]
		if bytes.IndexByte(inner, '`') < 0 {
			line = bytes.TrimRight(skipSpace(inner), " \t")
		}
	}
	return line
}

// unbullet takes a list bullet and the spaces after it off line.
func unbullet(line []byte) []byte {
	n := 0
	switch {
	case len(line) == 0:
	case line[0] == '-' || line[0] == '*' || line[0] == '+':
		n = 1
	case bytes.HasPrefix(line, []byte("•")):
		n = len("•")
	default:
		for n < len(line) && n < 3 && line[n] >= '0' && line[n] <= '9' {
			n++
		}
		if n == 0 || n == len(line) || line[n] != '.' && line[n] != ')' {
			return line
		}
		n++
	}
	if n == 0 || n == len(line) || !isSpace(line[n]) {
		return line
	}
	return skipSpace(line[n:])
}

// meant tells a line that is not a marker but was meant as one: after
// markup (bullets, quotes, headings, emphasis, code), it begins with the
// keyword in any case, and what follows names a task ("T002"). A line
// that says "Progress: all tests pass" is prose.
func meant(line []byte) bool {
	line = line[markup(line):]
	if len(line) < len(keyword) || !isKeyword(line[:len(keyword)-1]) || line[len(keyword)-1] != ':' {
		return false
	}
	rest := line[len(keyword):]
	for i := 0; i+1 < len(rest); i++ {
		if rest[i]|0x20 == 't' && rest[i+1] >= '0' && rest[i+1] <= '9' && (i == 0 || !isIDByte(rest[i-1])) {
			return true
		}
	}
	return false
}

// markup is how many bytes of markup begin line: spaces, bullets, list
// numbers, quotes, headings, emphasis, code.
func markup(line []byte) int {
	i := 0
	for i < len(line) {
		switch c := line[i]; {
		case isSpace(c) || c >= '0' && c <= '9' || bytes.IndexByte([]byte("-*+>#_`~.)"), c) >= 0:
			i++
		case bytes.HasPrefix(line[i:], []byte("•")):
			i += len("•")
		default:
			return i
		}
	}
	return i
}

// parseMarker reads the marker that line is, or says why it is not one.
func parseMarker(line []byte) (tally.Marker, string) {
	if len(line) < len(keyword) || !isKeyword(line[:len(keyword)-1]) || line[len(keyword)-1] != ':' {
		return tally.Marker{}, "it does not begin with progress: on a line of its own"
	}
	rest := skipSpace(line[len(keyword):])
	task, rest := takeID(rest)
	if task == "" {
		return tally.Marker{}, "no task id after progress: (progress: T001.S1 done)"
	}
	var step string
	if len(rest) > 0 && rest[0] == '.' {
		step, rest = takeID(rest[1:])
		if step == "" {
			return tally.Marker{}, "no step id after " + task + ". (progress: " + task + ".S1 done)"
		}
	}
	if len(rest) == 0 || !isSpace(rest[0]) {
		if len(rest) == 0 {
			return tally.Marker{}, "no action: use start, done, blocked or promoted"
		}
		return tally.Marker{}, "the id is followed by " + quote(rest) + ", not a space and an action"
	}
	rest = skipSpace(rest)
	word, after := takeWord(rest)
	verb, ok := ParseVerb(word)
	if !ok {
		w, _ := takeToken(rest)
		return tally.Marker{}, quote(w) + " is not an action: use start, done, blocked or promoted, in lower case"
	}
	m := tally.Marker{Task: task, Step: step, Verb: string(verb)}
	rest = skipSpace(after)
	switch {
	case len(rest) == 0:
		return m, ""
	case rest[0] == ':':
		reason := skipSpace(rest[1:])
		if len(reason) > MaxReason {
			reason = reason[:MaxReason]
		}
		m.Reason = string(bytes.ToValidUTF8(reason, []byte("\uFFFD")))
		return m, ""
	}
	return tally.Marker{}, "text after the action: " + quote(rest) + " (only \": reason\" may follow it)"
}

// takeToken is the run of bytes up to the next space.
func takeToken(b []byte) ([]byte, []byte) {
	i := 0
	for i < len(b) && !isSpace(b[i]) {
		i++
	}
	return b[:i], b[i:]
}

// quote quotes b for a reason, cut to a few dozen bytes.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		b = append(bytes.ToValidUTF8(b[:max], nil), "…"...)
	}
	return strconv.Quote(string(bytes.ToValidUTF8(b, []byte("\uFFFD"))))
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

// Text is a marker as an agent writes it ("progress: T001.S2 blocked:
// reason"); an unrecognised one is its line as written.
func Text(m tally.Marker) string {
	if m.Unrecognised() {
		return m.Line
	}
	s := "progress: " + m.Task
	if m.Step != "" {
		s += "." + m.Step
	}
	s += " " + m.Verb
	if m.Reason != "" {
		s += ": " + m.Reason
	}
	return s
}
