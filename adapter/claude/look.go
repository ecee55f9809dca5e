package claude

import (
	"bytes"

	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
)

// One look at a line's bytes answers every question the decoder, the
// detection and the markers ask of it before deciding to parse it: whose
// message the line holds (its kind), which tools an assistant message
// calls (each call's name and input, for its fingerprint and for whether
// it is a todo/task tool), and whether a text block of it may hold a
// progress marker. It follows the JSON's own structure, so each answer
// is exact and no byte of the line is searched twice for it:
//   - the line's first nested object (one IndexByte) tells whether the
//     line holds a message of its own: a line that relays another's
//     message (a progress line, a stream event, an API request's
//     history) has something else first, and a log of one API request
//     message says first that it is one;
//   - that message's keys, read one by one, give its role and content;
//   - an assistant message's content is read block by block: a block's
//     strings are skipped quote to quote with IndexByte, a tool's input
//     is skipped whole (so nothing inside it is taken for a block), and
//     only a text block's text is searched for a marker.
// The lines of tool results, attachments and API request logs — most of
// a transcript's bytes — cost the look at their first nested object, and
// are never searched at all. Names and text are matched as written: a
// letter escaped as \u0054 is not unescaped (no JSON writer escapes one).

// lineKind is whose message a line holds.
type lineKind uint8

const (
	kindOther     lineKind = iota // no message of its own
	kindUser                      // its own message, from the user: a prompt or tool results
	kindAssistant                 // its own message, from the model
)

// maxCalls is how many tool calls of one line a look keeps in place;
// more spill to the heap.
const maxCalls = 8

// toolUse is one tool_use block of an assistant line: its name (the JSON
// string, quotes included) and its input, as written.
type toolUse struct{ id, name, input []byte }

// look is what one pass over a line's bytes found.
type look struct {
	kind lineKind
	// nested is where the line's first nested object starts (its '{'),
	// key the member it is the value of; -1 and nil when the line has
	// none.
	nested int
	key    []byte
	// content is where the message's content starts (an assistant's
	// '[', a user's '[' or prompt string), -1 on a line of another kind.
	content int
	// read: the content was read block by block to its ']'. When it was
	// not (cut short, garbled), tool, marker and calls say nothing, and
	// the decoder falls back on searching the line's bytes.
	read bool
	// tool: a block calls a tool the decoder reads (todo, task, and in a
	// stream the calls that start a sub-agent).
	tool bool
	// marker: a text block holds "progress:".
	marker bool
	// calls are the line's tool_use blocks, in order.
	calls []toolUse
	buf   [maxCalls]toolUse
}

var (
	messageName    = []byte("message")
	attachmentName = []byte("attachment")
	roleAssistant  = []byte(`"assistant"`)
	roleUser       = []byte(`"user"`)
	blockToolUse   = []byte(`"tool_use"`)
	blockText      = []byte(`"text"`)
)

// lookAt looks at line, which has the shape of a JSON object
// (jsonl.Object).
func (d *Decoder) lookAt(line []byte) *look {
	lk := &d.seen
	lk.kind, lk.content, lk.read, lk.tool, lk.marker = kindOther, -1, false, false, false
	lk.calls = lk.buf[:0]
	lk.key, lk.nested = firstNested(line)
	if lk.nested < 0 || !bytes.Equal(lk.key, messageName) || !ownType(line) {
		return lk
	}
	role, content := messageParts(line, lk.nested+1)
	switch {
	case bytes.Equal(role, roleUser):
		lk.kind, lk.content = kindUser, content
		return lk
	case !bytes.Equal(role, roleAssistant):
		return lk
	}
	lk.kind = kindAssistant
	if content < 0 || line[content] != '[' {
		lk.read = true // no blocks: nothing called, nothing said
		return lk
	}
	lk.content = content
	lk.read = d.blocks(line, content+1, lk)
	if !lk.read {
		lk.tool, lk.marker, lk.calls = false, false, lk.calls[:0]
	}
	return lk
}

// firstNested finds the line's first nested object and the key whose
// value it is. The first '{' after the line's own, when a key and a colon
// come before it, is one; when it comes inside a string (a path or a
// prompt holding a brace), the line's keys are read one by one instead.
// Claude Code writes JSON without blanks, so `"key":{` is the only form
// the quick way looks for; any other is read the slow way.
func firstNested(line []byte) (key []byte, at int) {
	i := bytes.IndexByte(line[1:], '{') + 1
	if i <= 0 {
		return nil, -1
	}
	switch line[i-1] {
	case ':':
		if i >= 3 && line[i-2] == '"' {
			// A quote before a colon before a value closes a key: in
			// valid JSON nothing else can (a string holding `":{`
			// has its quote escaped).
			if q := bytes.LastIndexByte(line[:i-2], '"'); q >= 0 && !jsonl.Escaped(line, q) {
				return line[q+1 : i-2], i
			}
		}
	case '[', ',':
		return nil, -1 // an array's element: the line's first nested value is an array
	}
	return walkNested(line)
}

var typeFirst = []byte(`{"type":"`)

// ownType tells a line whose message may be its own by its type, when the
// type comes first: an API request log (api-request-blob) repeats a
// message of the conversation, the assistant's too, after saying what it
// is; the conversation's own lines are of type user or assistant.
func ownType(line []byte) bool {
	t, ok := bytes.CutPrefix(line, typeFirst)
	return !ok || bytes.HasPrefix(t, roleAssistant[1:]) || bytes.HasPrefix(t, roleUser[1:])
}

// walkNested is firstNested the slow way: the line's own keys, each value
// skipped whole, up to the first that is an object or an array.
func walkNested(line []byte) (key []byte, at int) {
	for i := 1; ; {
		name, v, ok := jsonl.Member(line, i)
		if !ok || name == nil || v >= len(line) {
			return nil, -1
		}
		switch line[v] {
		case '{':
			return name, v
		case '[':
			return nil, -1
		}
		n := jsonl.ValueLen(line[v:])
		if n < 0 {
			return nil, -1
		}
		i = v + n
	}
}

// messageParts reads the keys of the message object whose members start
// at line[from:]: its role (the JSON string, quotes included; nil if it
// has none) and where its content's value starts (-1 if it has none).
// Both come first in every message Claude Code writes (after id, type
// and model), so the walk stops once it has them, and the content is
// skipped only when the role comes after it.
func messageParts(line []byte, from int) (role []byte, content int) {
	content = -1
	i := from
	if r, c, ok := writtenParts(line, from); ok {
		return r, c
	}
	for {
		name, v, ok := jsonl.Member(line, i)
		if !ok || name == nil {
			return role, content
		}
		if string(name) == "content" && content < 0 {
			content = v
			if role != nil {
				return role, content
			}
		}
		n := jsonl.ValueLen(line[v:])
		if n < 0 {
			return role, content
		}
		if string(name) == "role" && role == nil {
			role = line[v : v+n]
			if content >= 0 {
				return role, content
			}
		}
		i = v + n
	}
}

var (
	idKey      = []byte(`"id":"`)
	roleKey    = []byte(`"role":`)
	afterID    = []byte(`,"type":"message",`)
	modelKey   = []byte(`,"model":"`)
	contentKey = []byte(`,"content":`)
)

// writtenParts is messageParts for a message as Claude Code writes it,
// read without a walk: `"role":"user","content":…` or `"id":"msg_…",
// "type":"message","role":"assistant","model":"…","content":…`. ok is
// false for any other.
func writtenParts(line []byte, i int) (role []byte, content int, ok bool) {
	if rest, ok := bytes.CutPrefix(line[i:], idKey); ok {
		j := bytes.IndexByte(rest, '"')
		if j <= 0 || rest[j-1] == '\\' || !bytes.HasPrefix(rest[j+1:], afterID) {
			return nil, -1, false
		}
		i += len(idKey) + j + 1 + len(afterID)
	}
	rest, ok := bytes.CutPrefix(line[i:], roleKey)
	if !ok {
		return nil, -1, false
	}
	i += len(roleKey)
	n := jsonl.ValueLen(rest)
	if n < 2 || rest[0] != '"' {
		return nil, -1, false
	}
	role, i = line[i:i+n], i+n
	if rest, ok := bytes.CutPrefix(line[i:], modelKey); ok {
		j := bytes.IndexByte(rest, '"')
		if j <= 0 || rest[j-1] == '\\' {
			return nil, -1, false
		}
		i += len(modelKey) + j + 1
	}
	if !bytes.HasPrefix(line[i:], contentKey) {
		return nil, -1, false
	}
	return role, i + len(contentKey), true
}

// blocks reads the blocks of an assistant message's content, whose
// elements start at line[from:], into lk. It reports whether the array
// read to its ']' as blocks the decoder can tell.
func (d *Decoder) blocks(line []byte, from int, lk *look) bool {
	var typ, id, name, input, text []byte
	haveInput := false
	// The first of a key said twice is the one the parser takes.
	member := func(key, val []byte) bool {
		switch string(key) {
		case "type":
			if typ == nil {
				typ = val
			}
		case "id":
			if id == nil {
				id = val
			}
		case "name":
			if name == nil {
				name = val
			}
		case "input":
			if !haveInput {
				input, haveInput = val, true
			}
		case "text":
			if text == nil {
				text = val
			}
		}
		return true
	}
	end := func() bool {
		switch {
		case bytes.Equal(typ, blockToolUse):
			if len(name) < 2 || name[0] != '"' || !haveInput {
				return false // not a call the decoder can tell
			}
			lk.calls = append(lk.calls, toolUse{id: id, name: name, input: input})
			if d.readsTool(name[1 : len(name)-1]) {
				lk.tool = true
			}
		case bytes.Equal(typ, blockText):
			if !lk.marker && len(text) > 0 && text[0] == '"' && marker.Maybe(text) {
				lk.marker = true
			}
		}
		typ, id, name, input, text, haveInput = nil, nil, nil, nil, nil, false
		return true
	}
	stopped, ok := jsonl.Objects(line, from, member, end)
	return ok && !stopped
}

// readsTool tells the tools whose calls the decoder reads.
func (d *Decoder) readsTool(name []byte) bool {
	switch toolName(name) {
	case toolTodoWrite, toolTaskCreate, toolTaskUpdate, toolTaskList:
		return true
	case toolAgent, toolAgentTask:
		return d.stream
	}
	return false
}

var toolUseIDName = []byte("tool_use_id")

// answers tells whether a user line answers a call awaiting its result:
// a block of its content names the call in tool_use_id. The blocks are
// read as lookAt reads an assistant's, each value skipped whole, so one
// pass tells it whatever the number of calls awaited; content that does
// not read as blocks is searched for every id instead.
func (d *Decoder) answers(line []byte, lk *look) bool {
	if len(d.pendingIDs) == 0 || lk.kind != kindUser || lk.content < 0 || line[lk.content] != '[' {
		return false
	}
	found, ok := jsonl.Objects(line, lk.content+1, func(key, val []byte) bool {
		return !bytes.Equal(key, toolUseIDName) || !d.awaited(val)
	}, func() bool { return true })
	if !ok {
		return d.holdsPending(line)
	}
	return found
}

// awaited tells a JSON string naming a call awaiting its result.
func (d *Decoder) awaited(s []byte) bool {
	if len(s) < 2 || s[0] != '"' {
		return false
	}
	for _, id := range d.pendingIDs {
		if bytes.Equal(s[1:len(s)-1], id) {
			return true
		}
	}
	return false
}

// holdsPending is the search for an awaited call's id anywhere in line.
func (d *Decoder) holdsPending(line []byte) bool {
	for _, id := range d.pendingIDs {
		if bytes.Contains(line, id) {
			return true
		}
	}
	return false
}
