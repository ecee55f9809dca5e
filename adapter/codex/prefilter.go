package codex

import (
	"bytes"
	"strings"

	"github.com/tallyhq/tally/marker"
)

// hits says which needles a line holds; Line parses a line only if it has
// one.
type hits uint8

const (
	hitPlan hits = 1 << iota // an update_plan function call
	hitMeta                  // a session_meta line
	hitTodo                  // an exec todo_list item
	hitCall                  // the output of a held update_plan call
	hitUser                  // a user message (only looked for until the title is known)
	hitText                  // an assistant message that may hold a progress marker
)

// The needles all hold '_', which is rarer than letters in the bulk of a
// rollout: the scan jumps from '_' to '_' with IndexByte and compares the
// needles around each one. Quotes are part of each needle, so the same
// words inside a JSON string (escaped as \") do not match. The full scan is
// the fallback of classify, for lines whose head is not laid out as
// expected.
var needles = []struct {
	text  string
	under int // index of '_' in text
	hit   hits
}{
	{`"name":"update_plan"`, len(`"name":"update`), hitPlan},
	{`"type":"session_meta"`, len(`"type":"session`), hitMeta},
	{`"todo_list"`, len(`"todo`), hitTodo},
}

const callIDKey = `"call_id":"`

var (
	userRole      = []byte(`"role":"user"`)
	assistantRole = []byte(`"role":"assistant"`)
	agentMessage  = []byte(`"agent_message"`)
)

// execKind classifies a `codex exec --json` line by its first key, which
// serde always writes first: {"type":"thread.started",…}.
type execKind uint8

const (
	execNone execKind = iota
	execThread
	execTurn
	execItem
)

func execOf(line []byte) execKind {
	const head = `{"type":"`
	if !bytes.HasPrefix(line, []byte(head)) {
		return execNone
	}
	rest := line[len(head):]
	switch {
	case bytes.HasPrefix(rest, []byte("thread.")):
		return execThread
	case bytes.HasPrefix(rest, []byte("turn.")):
		return execTurn
	case bytes.HasPrefix(rest, []byte("item.")):
		return execItem
	}
	return execNone
}

// scan finds the needles in line in one pass; pending are the call ids of
// held update_plan calls, whose outputs are wanted.
func scan(line []byte, pending []pendingPlan) hits {
	var h hits
	for i := 0; ; i++ {
		j := bytes.IndexByte(line[i:], '_')
		if j < 0 {
			return h
		}
		i += j
		for _, n := range needles {
			if s := i - n.under; s >= 0 && len(line)-s >= len(n.text) && string(line[s:s+len(n.text)]) == n.text {
				h |= n.hit
			}
		}
		if len(pending) > 0 && h&hitCall == 0 {
			if s := i - len(`"call`); s >= 0 && bytes.HasPrefix(line[s:], []byte(callIDKey)) {
				if heldCall(line[s+len(callIDKey):], pending) {
					h |= hitCall
				}
			}
		}
	}
}

// heldCall reports whether rest starts with the id of a held call and its
// closing quote.
func heldCall(rest []byte, pending []pendingPlan) bool {
	for _, p := range pending {
		if len(rest) > len(p.CallID) && string(rest[:len(p.CallID)]) == p.CallID && rest[len(p.CallID)] == '"' {
			return true
		}
	}
	return false
}

// headLen is how far into a line classify looks. serde writes a rollout
// line's keys in declaration order — timestamp, (ordinal,) type, payload —
// and within the payload, type and the small identifying keys (name,
// call_id, role) come before the big ones (arguments, output, content).
const headLen = 512

const (
	typeKey     = `"type":"`
	payloadKey  = `"payload":`
	payloadType = `{"type":"`
)

// classify says which needles a line holds, looking only at its head when
// the line is laid out as serde writes it: most lines are then decided
// without reading their (large) tail. pending are the held call ids;
// titled says the title is known, so user messages no longer matter.
func classify(line []byte, pending []pendingPlan, titled bool) hits {
	head := line[:min(len(line), headLen)]
	p := indexY(head, payloadKey)
	if p < 0 {
		return fullScan(line, pending, titled)
	}
	top := head[:p]
	t := indexY(top, typeKey)
	if t < 0 {
		return fullScan(line, pending, titled)
	}
	switch typ := top[t+len(typeKey):]; {
	case bytes.HasPrefix(typ, []byte(`session_meta"`)):
		return hitMeta
	case !bytes.HasPrefix(typ, []byte(`response_item"`)):
		return 0 // event_msg, turn_context, compacted, …: never a plan
	}
	body, ok := bytes.CutPrefix(head[p+len(payloadKey):], []byte(payloadType))
	if !ok {
		return fullScan(line, pending, titled)
	}
	switch {
	case bytes.HasPrefix(body, []byte(`function_call"`)):
		if bytes.Contains(body, []byte(`"name":"update_plan"`)) {
			return hitPlan
		}
		if bytes.Contains(body, []byte(`"name":"`)) {
			return 0
		}
	case bytes.HasPrefix(body, []byte(`function_call_output"`)):
		if len(pending) == 0 {
			return 0
		}
		if i := bytes.Index(body, []byte(callIDKey)); i >= 0 {
			id := body[i+len(callIDKey):]
			if bytes.IndexByte(id, '"') >= 0 { // the whole id is in the head
				if heldCall(id, pending) {
					return hitCall
				}
				return 0
			}
		}
	case bytes.HasPrefix(body, []byte(`message"`)):
		if bytes.Contains(body, assistantRole) {
			if marker.Maybe(line) {
				return hitText
			}
			return 0
		}
		if titled {
			return 0
		}
		if bytes.Contains(body, userRole) {
			return hitUser
		}
		if bytes.Contains(body, []byte(`"role":"`)) {
			return 0
		}
	default:
		return 0
	}
	return fullScan(line, pending, titled) // the key we need is further on
}

func fullScan(line []byte, pending []pendingPlan, titled bool) hits {
	h := scan(line, pending)
	if !titled && bytes.Contains(line, userRole) {
		h |= hitUser
	}
	if marker.Maybe(line) && bytes.Contains(line, assistantRole) {
		h |= hitText
	}
	return h
}

// indexY finds a key holding 'y' by that byte, rare in a line's head,
// rather than by its opening quote, which is everywhere.
func indexY(s []byte, key string) int {
	k := strings.IndexByte(key, 'y')
	for i := k; i < len(s); i++ {
		j := bytes.IndexByte(s[i:], 'y')
		if j < 0 {
			return -1
		}
		i += j
		if start := i - k; start >= 0 && len(s)-start >= len(key) && string(s[start:start+len(key)]) == key {
			return start
		}
	}
	return -1
}
