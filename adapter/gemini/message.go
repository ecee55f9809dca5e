package gemini

import (
	"bytes"
	"strconv"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// Tool names of Gemini CLI that change a list.
const (
	toolWriteTodos    = "write_todos"
	trackerPrefix     = "tracker_"
	trackerCreate     = "tracker_create_task"
	trackerUpdate     = "tracker_update_task"
	trackerDependency = "tracker_add_dependency"
)

// callSucceeded: only a call that ran changed anything. A record without a
// status is taken as run, as records are written once calls complete.
func callSucceeded(status []byte) bool {
	return len(status) == 0 || string(status) == "success"
}

// message is what the decoder uses of one MessageRecord, read whole before
// anything is applied so that a bad record changes nothing.
type message struct {
	id      string
	at      time.Time
	todos   *todoCall
	tracker []trackerCall
	prompt  string
	// markers are the progress markers of a reply's text, numbered within
	// the message; where they are placed is the decoder's to say.
	markers []tally.Marker
}

type todoCall struct {
	id    string
	items []tally.Item
}

// readMessage reads a MessageRecord {id, timestamp, type, content,
// toolCalls?}. prompt is looked for only when wantPrompt.
func readMessage(v *fastjson.Value, wantPrompt bool) (message, error) {
	id, err := str(v, "id")
	if err != nil {
		return message{}, err
	}
	if id == "" {
		return message{}, errText("message has no id")
	}
	m := message{id: id, at: timeOf(v, "timestamp")}
	typ := string(v.GetStringBytes("type"))
	if typ == "user" && wantPrompt {
		if m.prompt, err = promptOf(v.Get("content")); err != nil {
			return message{}, err
		}
	}
	if typ == "gemini" {
		m.markers = replyMarkers(v.Get("content"), m.at)
	}
	for _, c := range v.GetArray("toolCalls") {
		name := string(c.GetStringBytes("name"))
		if name != toolWriteTodos && !hasPrefix(name, trackerPrefix) {
			continue
		}
		if !callSucceeded(c.GetStringBytes("status")) {
			continue // the list did not change
		}
		callID, err := str(c, "id")
		if err != nil {
			return message{}, err
		}
		if name == toolWriteTodos {
			items, err := callTodos(c)
			if err != nil {
				return message{}, errText("write_todos call " + callID + ": " + err.Error())
			}
			m.todos = &todoCall{id: callID, items: items}
			continue
		}
		tc, ok, err := readTrackerCall(c, name, callID)
		if err != nil {
			return message{}, errText(name + " call " + callID + ": " + err.Error())
		}
		if ok {
			m.tracker = append(m.tracker, tc)
		}
	}
	return m, nil
}

// replyMarkers reads the progress markers of a reply's content: a string,
// or parts whose text is not a thought.
func replyMarkers(c *fastjson.Value, at time.Time) []tally.Marker {
	if c == nil {
		return nil
	}
	switch c.Type() {
	case fastjson.TypeString:
		return marker.Append(nil, c.GetStringBytes(), 0, at)
	case fastjson.TypeArray:
		var found []tally.Marker
		for _, p := range c.GetArray() {
			if !p.GetBool("thought") {
				found = marker.Append(found, p.GetStringBytes("text"), 0, at)
			}
		}
		return found
	}
	return nil
}

// callTodos is the list a successful write_todos call set: its result
// display (what the tool stored), else its arguments.
func callTodos(c *fastjson.Value) ([]tally.Item, error) {
	if t := c.Get("resultDisplay", "todos"); t != nil {
		return todoItems(t)
	}
	t := c.Get("args", "todos")
	if t == nil {
		return nil, errText("has neither resultDisplay.todos nor args.todos")
	}
	return todoItems(t)
}

// responses maps the id of each functionResponse part in a checkpoint's
// messages to whether the call succeeded (its response holds no error).
func responses(list []*fastjson.Value) map[string]bool {
	out := map[string]bool{}
	for _, mv := range list {
		for _, p := range mv.GetArray("content") {
			r := p.Get("functionResponse")
			if r == nil {
				continue
			}
			if id := string(r.GetStringBytes("id")); id != "" {
				out[id] = r.Get("response", "error") == nil
			}
		}
	}
	return out
}

// partTodos reads the last write_todos call written as a functionCall
// part of a message's content, the shape Gemini CLI 0.61 gives a
// checkpoint it writes when a session is resumed (the calls are no longer
// toolCalls there). A call counts once a functionResponse answered it
// without an error: one never answered did not run.
func partTodos(mv *fastjson.Value, answered map[string]bool) (*todoCall, error) {
	if string(mv.GetStringBytes("type")) != "gemini" {
		return nil, nil
	}
	var last *todoCall
	for _, p := range mv.GetArray("content") {
		c := p.Get("functionCall")
		if c == nil || string(c.GetStringBytes("name")) != toolWriteTodos {
			continue
		}
		id := string(c.GetStringBytes("id"))
		if id == "" || !answered[id] {
			continue
		}
		items, err := callTodos(c)
		if err != nil {
			return nil, errText("write_todos call " + id + ": " + err.Error())
		}
		last = &todoCall{id: id, items: items}
	}
	return last, nil
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// chatMessage handles a line that starts as a MessageRecord does. Most
// such lines only need their id placed: the id is read from the bytes, and
// the line is parsed only if it can hold a list or a wanted prompt.
func (d *Decoder) chatMessage(line []byte, off int64) error {
	id, ok := fastID(line)
	if !ok || mayHoldList(line) || marker.Maybe(line) || (!d.st.HaveTitle && bytes.Contains(line, userTypeNeedle)) {
		v, err := d.parse(line)
		if err != nil {
			return err
		}
		return d.value(v, off)
	}
	h := hashID(id)
	d.st.touch(h)
	d.st.dropTodos(h)
	d.sync(off, time.Time{})
	return nil
}

// applyMessage places a read message and records what it says.
func (d *Decoder) applyMessage(m message, off int64) {
	r := msgRef{H: hashID(m.id)}
	r.S = d.st.touch(r.H)
	if m.todos != nil {
		d.st.setTodos(r, m.todos.id, m.todos.items)
	} else {
		d.st.dropTodos(r.H)
	}
	for _, tc := range m.tracker {
		d.applyTracker(tc, m.at)
	}
	if len(m.markers) > 0 {
		place := off
		if d.info.Layout == tally.LayoutWhole {
			place = int64(r.S) // every message of a record rewritten whole is at offset 0
		}
		for _, mk := range d.st.newMarkers(r.H, place, m.markers) {
			d.add(tally.Event{Kind: tally.EventMarker, At: mk.At, Marker: mk})
		}
	}
	if m.prompt != "" && !d.st.HaveTitle {
		d.st.HaveTitle = true
		d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Title: m.prompt, TitleWeak: true}})
	}
}

// sync emits the list when the version deciding it (its call and
// revision) is not the one last emitted. It runs for every message line,
// so the comparison allocates nothing. The event's id is the call's plus
// the line's offset: a list restored by a rewind is the same call applied
// again, which the fold would otherwise drop as already seen.
func (d *Decoder) sync(off int64, at time.Time) {
	cur := d.st.current()
	call, rev := "", uint32(0)
	if cur != nil {
		call, rev = cur.Call, cur.Rev
	}
	if call == d.st.Shown && rev == d.st.ShownRev {
		return
	}
	d.st.Shown, d.st.ShownRev = call, rev
	ev := tally.Event{Kind: tally.EventSnapshot, At: at, Items: []tally.Item{}}
	if cur != nil {
		ev.Items = append(ev.Items, cur.Items...)
		ev.ToolUseID = cur.Call + "@" + strconv.FormatInt(off, 10)
	} else {
		ev.ToolUseID = "cleared@" + strconv.FormatInt(off, 10)
	}
	d.add(ev)
}

// rewind applies {"$rewindTo":"<messageId>"}.
func (d *Decoder) rewind(v *fastjson.Value, off int64) error {
	id, err := str(v, "$rewindTo")
	if err != nil {
		return err
	}
	d.st.rewindTo(hashID(id))
	d.sync(off, time.Time{})
	return nil
}

// set applies {"$set":{…}}: metadata, and a messages checkpoint.
func (d *Decoder) set(s *fastjson.Value, off int64) error {
	if s.Type() != fastjson.TypeObject {
		return errText("$set is not an object")
	}
	meta, err := readMeta(s)
	if err != nil {
		return err
	}
	var msgs []message
	if arr := s.Get("messages"); arr != nil {
		if msgs, err = d.readMessages(arr); err != nil {
			return err
		}
		d.st.clear()
		for _, m := range msgs {
			d.applyMessage(m, off)
		}
	}
	d.applyMeta(meta)
	d.sync(off, meta.updated)
	return nil
}

// readMessages reads a checkpoint's message array, or that of a legacy
// record written on one line of a log.
func (d *Decoder) readMessages(arr *fastjson.Value) ([]message, error) {
	list, err := arr.Array()
	if err != nil {
		return nil, errText("messages is not an array")
	}
	ctx := ""
	out := make([]message, 0, len(list))
	want := !d.st.HaveTitle
	answered := responses(list)
	for _, mv := range list {
		if mv.Type() != fastjson.TypeObject {
			return nil, errText("a message is not an object")
		}
		m, err := readMessage(mv, want)
		if err != nil {
			return nil, err
		}
		if m.todos == nil {
			if m.todos, err = partTodos(mv, answered); err != nil {
				return nil, err
			}
		}
		if m.prompt != "" {
			want = false
		}
		if ctx == "" {
			ctx = contextDir(mv)
		}
		out = append(out, m)
	}
	d.project(rankContext, ctx)
	return out, nil
}

// header applies the first line of a chat record (it is written again
// when a session is resumed). A header holding messages is a legacy
// record on one line.
func (d *Decoder) header(v *fastjson.Value, off int64) error {
	meta, err := readMeta(v)
	if err != nil {
		return err
	}
	if arr := v.Get("messages"); arr != nil {
		msgs, err := d.readMessages(arr)
		if err != nil {
			return err
		}
		d.st.clear()
		for _, m := range msgs {
			d.applyMessage(m, off)
		}
	}
	d.applyMeta(meta)
	d.sync(off, time.Time{})
	return nil
}
