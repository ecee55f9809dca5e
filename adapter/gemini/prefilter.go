package gemini

import "bytes"

// The prefilter decides from bytes alone whether a line can matter. Gemini
// CLI writes records with JSON.stringify, which keeps key order, so each
// line's first key tells its kind; only lines that can change a list, or
// carry a fact still missing, reach the parser.

type kind uint8

const (
	kindOther   kind = iota // stream-json, or a record in an unusual key order
	kindMessage             // {"id":… a MessageRecord
	kindSet                 // {"$set":…
	kindRewind              // {"$rewindTo":…
	kindHeader              // {"sessionId":… the chat record's first line
)

var (
	messagePrefix = []byte(`{"id":"`)
	setPrefix     = []byte(`{"$set":`)
	rewindPrefix  = []byte(`{"$rewindTo":`)
	headerPrefix  = []byte(`{"sessionId":`)
	// A $set of lastUpdated alone follows every message: skipped unread.
	updatedOnlyPrefix = []byte(`{"$set":{"lastUpdated":"`)

	todosNeedle   = []byte(toolWriteTodos)
	trackerNeedle = []byte(trackerPrefix)
	// A stream-json tracker call; its result is wanted only while held.
	trackerUseNeedle = []byte(`"tool_name":"` + trackerPrefix)
	userTypeNeedle   = []byte(`"type":"user"`)
	userRoleNeedle   = []byte(`"role":"user"`)
	// A stream-json reply delta: its text may hold part of a marker.
	replyNeedle   = []byte(`"role":"assistant"`)
	initNeedle    = []byte(`"type":"init"`)
	resultNeedle  = []byte(`"type":"tool_result"`)
	dollarNeedle  = []byte(`"$`)
	sessionNeedle = []byte(`"sessionId"`)
	idNeedle      = []byte(`"id":"`)
	timeNeedle    = []byte(`"timestamp":"`)
	updatedNeedle = []byte(`"lastUpdated":"`)
)

func kindOf(line []byte) kind {
	switch {
	case bytes.HasPrefix(line, messagePrefix):
		return kindMessage
	case bytes.HasPrefix(line, setPrefix):
		return kindSet
	case bytes.HasPrefix(line, rewindPrefix):
		return kindRewind
	case bytes.HasPrefix(line, headerPrefix):
		return kindHeader
	}
	return kindOther
}

// updatedOnly reports a {"$set":{"lastUpdated":"<time>"}} line.
func updatedOnly(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, updatedOnlyPrefix)
	if !ok {
		return false
	}
	i := bytes.IndexByte(rest, '"')
	return i >= 0 && bytes.Equal(rest[i:], []byte(`"}}`))
}

// mayHoldList: a write_todos or tracker call may be in the line. A mention
// in text is a false positive the parse then drops.
func mayHoldList(line []byte) bool {
	return bytes.Contains(line, todosNeedle) || bytes.Contains(line, trackerNeedle)
}

// wanted is the prefilter for lines that are not MessageRecords.
func (d *Decoder) wanted(k kind, line []byte) bool {
	switch k {
	case kindSet:
		return !updatedOnly(line)
	case kindRewind, kindHeader:
		return true
	case kindMessage:
		return true
	case kindOther:
	}
	switch {
	case bytes.Contains(line, todosNeedle),
		bytes.Contains(line, trackerUseNeedle),
		bytes.Contains(line, initNeedle),
		bytes.Contains(line, dollarNeedle),
		bytes.Contains(line, sessionNeedle):
		return true
	case !d.st.HaveTitle && bytes.Contains(line, userRoleNeedle):
		return true
	case len(d.st.Reply.Held) > 0 || bytes.Contains(line, replyNeedle):
		// A reply's delta, or the line after one that ends it.
		return true
	case bytes.Contains(line, resultNeedle):
		for _, p := range d.st.Pending {
			if bytes.Contains(line, []byte(p.ID)) {
				return true
			}
		}
		for _, c := range d.st.Trackers {
			if bytes.Contains(line, []byte(c.ID)) {
				return true
			}
		}
		return false
	}
	// A MessageRecord whose keys come in another order.
	return bytes.Contains(line, idNeedle) && bytes.Contains(line, timeNeedle) && !bytes.Contains(line, []byte(`"type":"tool_`))
}

// fastID reads a MessageRecord's id from its first key without parsing,
// false when the id is not a plain string.
func fastID(line []byte) (string, bool) {
	rest := line[len(messagePrefix):]
	i := bytes.IndexByte(rest, '"')
	if i <= 0 || bytes.IndexByte(rest[:i], '\\') >= 0 {
		return "", false
	}
	return string(rest[:i]), true
}
