package marker

import (
	"bytes"

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
