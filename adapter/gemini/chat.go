package gemini

import (
	"hash/fnv"
	"slices"

	"github.com/tallyhq/tally"
)

// The chat record is an upsert log of messages (chatRecordingService.ts):
// a message id written again replaces the earlier record but keeps its
// place; {"$rewindTo":id} deletes that message and all after it;
// {"$set":{"messages":[…]}} replaces the whole list. The todo list is what
// the latest surviving successful write_todos said, so the decoder keeps
// just enough of that log to answer after any of those moves: the order
// of recent message ids, and the todos of the messages that carry one.

// Bounds on the chat memory.
const (
	// maxRecentIDs is how many message ids are remembered to place a
	// rewind target. A rewind to an older message is not found and, like
	// any unknown target, changes nothing.
	maxRecentIDs = 512
	// maxTodoMsgs is how many write_todos-carrying messages are kept to
	// go back to. A rewind past all of them empties the list.
	maxTodoMsgs = 32
	// maxMarkedMsgs is how many marker-carrying messages are remembered,
	// so that one written again does not give its markers again.
	maxMarkedMsgs = 64
)

// msgRef places one message: the hash of its id and its position.
type msgRef struct {
	H uint64 `json:"h"`
	S uint32 `json:"s"`
}

// todoMsg is a message whose toolCalls hold a successful write_todos: the
// last such call in it decides the list while it is the newest one.
type todoMsg struct {
	msgRef
	Call string `json:"call"`
	// Rev tells this version of the message's list from an earlier one:
	// a message written again may carry other todos under the same call
	// id, and the newer ones win.
	Rev   uint32       `json:"rev,omitempty"`
	Items []tally.Item `json:"items"`
}

// markedMsg is a message whose text held progress markers: where it was
// first written and how many of its markers were given.
type markedMsg struct {
	H   uint64 `json:"h"`
	Off int64  `json:"o"`
	N   int    `json:"n"`
}

type chat struct {
	Seq    uint32      `json:"seq,omitempty"`
	IDs    []msgRef    `json:"ids,omitempty"`
	Todos  []todoMsg   `json:"todos,omitempty"`
	Marked []markedMsg `json:"marked,omitempty"`
	// Revs counts the versions of lists set so far (todoMsg.Rev).
	Revs uint32 `json:"revs,omitempty"`
	// Shown and ShownRev are the call and version of the list last
	// emitted, "" and 0 for the empty list every file starts with.
	Shown    string `json:"shown,omitempty"`
	ShownRev uint32 `json:"shownRev,omitempty"`
}

func (c *chat) empty() bool {
	return c.Seq == 0 && len(c.IDs) == 0 && len(c.Todos) == 0 && len(c.Marked) == 0 && c.Revs == 0 && c.Shown == "" && c.ShownRev == 0
}

// newMarkers places the markers of message h, read at off, and returns
// those not given before. A message written again (with its tool calls,
// or by a checkpoint) keeps the place it was first written at, so its
// markers are the same markers, given once.
func (c *chat) newMarkers(h uint64, off int64, ms []tally.Marker) []tally.Marker {
	i := slices.IndexFunc(c.Marked, func(m markedMsg) bool { return m.H == h })
	if i < 0 {
		c.Marked = append(c.Marked, markedMsg{H: h, Off: off})
		if len(c.Marked) > maxMarkedMsgs {
			c.Marked = slices.Delete(c.Marked, 0, len(c.Marked)-maxMarkedMsgs)
		}
		i = len(c.Marked) - 1
	}
	mm := &c.Marked[i]
	if mm.N >= len(ms) {
		return nil
	}
	out := slices.Clone(ms[mm.N:])
	for j := range out {
		out[j].Offset = mm.Off
	}
	mm.N = len(ms)
	return out
}

func hashID(id string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(id))
	return h.Sum64()
}

// find returns the position of a known message.
func (c *chat) find(h uint64) (uint32, bool) {
	for i := len(c.IDs) - 1; i >= 0; i-- {
		if c.IDs[i].H == h {
			return c.IDs[i].S, true
		}
	}
	for i := len(c.Todos) - 1; i >= 0; i-- {
		if c.Todos[i].H == h {
			return c.Todos[i].S, true
		}
	}
	return 0, false
}

// touch places a message: where it already is, else after all others.
func (c *chat) touch(h uint64) uint32 {
	if s, ok := c.find(h); ok {
		return s
	}
	s := c.Seq
	c.Seq++
	c.IDs = append(c.IDs, msgRef{H: h, S: s})
	if len(c.IDs) > maxRecentIDs {
		c.IDs = slices.Delete(c.IDs, 0, len(c.IDs)-maxRecentIDs)
	}
	return s
}

// setTodos records the list a message's write_todos set, keeping Todos in
// message order. The message written again replaces its earlier record
// whole: a new call, or the same call with other todos, is a new version
// of the list; the same call with the same todos (the CLI writes a message
// again for many reasons) is not.
func (c *chat) setTodos(r msgRef, call string, items []tally.Item) {
	t := todoMsg{msgRef: r, Call: call, Items: items}
	for i := range c.Todos {
		if c.Todos[i].H == r.H {
			if old := &c.Todos[i]; old.Call == call && sameTodos(old.Items, items) {
				return
			}
			c.Revs++
			t.Rev = c.Revs
			c.Todos[i] = t
			return
		}
	}
	c.Revs++
	t.Rev = c.Revs
	i, _ := slices.BinarySearchFunc(c.Todos, r.S, func(t todoMsg, s uint32) int { return int(int64(t.S) - int64(s)) })
	c.Todos = slices.Insert(c.Todos, i, t)
	if len(c.Todos) > maxTodoMsgs {
		c.Todos = slices.Delete(c.Todos, 0, len(c.Todos)-maxTodoMsgs)
	}
}

// dropTodos forgets a message's list: it was written again without one.
func (c *chat) dropTodos(h uint64) {
	c.Todos = slices.DeleteFunc(c.Todos, func(t todoMsg) bool { return t.H == h })
}

// rewindTo deletes the message h and every message after it. An unknown
// target changes nothing: Gemini CLI never writes one (its rewindTo checks
// first), so it is a line read twice or a target older than memory.
func (c *chat) rewindTo(h uint64) {
	s, ok := c.find(h)
	if !ok {
		return
	}
	c.IDs = slices.DeleteFunc(c.IDs, func(r msgRef) bool { return r.S >= s })
	c.Todos = slices.DeleteFunc(c.Todos, func(t todoMsg) bool { return t.S >= s })
}

// clear forgets every message, for a checkpoint that replaces them all.
func (c *chat) clear() {
	c.IDs = c.IDs[:0]
	c.Todos = c.Todos[:0]
}

// current is the message whose write_todos decides the list, nil if none.
func (c *chat) current() *todoMsg {
	if len(c.Todos) == 0 {
		return nil
	}
	return &c.Todos[len(c.Todos)-1]
}

// sameTodos compares two write_todos lists by what Gemini's todos hold.
func sameTodos(a, b []tally.Item) bool {
	return slices.EqualFunc(a, b, func(x, y tally.Item) bool {
		return x.Title == y.Title && x.Status == y.Status && x.RawStatus == y.RawStatus
	})
}
