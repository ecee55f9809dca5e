package gemini

import (
	"bytes"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// maxPending bounds the stream-json write_todos calls awaiting a result.
// Results follow their call within a few lines.
const maxPending = 16

// pending is a write_todos call whose tool_result has not been read.
type pending struct {
	ID    string       `json:"id"`
	Items []tally.Item `json:"items"`
}

// Stream-json event types (packages/core/src/output/types.ts).
const (
	streamInit       = "init"
	streamMessage    = "message"
	streamToolUse    = "tool_use"
	streamToolResult = "tool_result"
	streamError      = "error"
	streamResult     = "result"
)

// stream decodes one `--output-format stream-json` event. The list is in
// the tool_use's parameters (its tool_result carries no output for
// write_todos) and is applied only when the result says success: a failed
// call left the list as it was.
func (d *Decoder) stream(v *fastjson.Value, off int64) error {
	at := timeOf(v, "timestamp")
	typ := string(v.GetStringBytes("type"))
	role := string(v.GetStringBytes("role"))
	if typ != streamMessage || role != "assistant" {
		d.markers(d.st.Reply.Flush()) // the reply being streamed has ended
	}
	switch typ {
	case streamInit:
		sid, err := str(v, "session_id")
		if err != nil {
			return err
		}
		d.st.Stream = sid
		d.noteModel(string(v.GetStringBytes("model")))
		if sid != "" && d.info.List == "" {
			d.add(tally.Event{Kind: tally.EventMeta, At: at, Meta: tally.Meta{SessionID: sid}})
		}
	case streamMessage:
		if role == "assistant" {
			// A reply comes in deltas that split its text anywhere.
			d.markers(d.st.Reply.Add(v.GetStringBytes("content"), off, at))
			return nil
		}
		if d.st.HaveTitle || role != "user" {
			return nil
		}
		title, err := promptOf(v.Get("content"))
		if err != nil {
			return err
		}
		if title != "" {
			d.st.HaveTitle = true
			d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Title: title, TitleWeak: true}})
		}
	case streamToolUse:
		name := v.GetStringBytes("tool_name")
		if bytes.HasPrefix(name, trackerNeedle) {
			return d.streamTrackerCall(v, string(name))
		}
		if string(name) != toolWriteTodos {
			return nil
		}
		id, err := str(v, "tool_id")
		if err != nil {
			return err
		}
		t := v.Get("parameters", "todos")
		if id == "" || t == nil {
			return errText("write_todos tool_use without tool_id or parameters.todos")
		}
		items, err := todoItems(t)
		if err != nil {
			return errText("write_todos call " + id + ": " + err.Error())
		}
		d.st.Pending = append(d.st.Pending, pending{ID: id, Items: items})
		if len(d.st.Pending) > maxPending {
			d.st.Pending = d.st.Pending[1:]
		}
	case streamToolResult:
		id, err := str(v, "tool_id")
		if err != nil {
			return err
		}
		ok := string(v.GetStringBytes("status")) == "success"
		for i, p := range d.st.Pending {
			if p.ID != id {
				continue
			}
			d.st.Pending = append(d.st.Pending[:i], d.st.Pending[i+1:]...)
			if ok {
				d.add(tally.Event{Kind: tally.EventSnapshot, ToolUseID: id, At: at, Items: p.Items})
			}
			return nil
		}
		for i, c := range d.st.Trackers {
			if c.ID != id {
				continue
			}
			d.st.Trackers = append(d.st.Trackers[:i], d.st.Trackers[i+1:]...)
			if ok {
				d.streamTracker(c, at)
			}
			return nil
		}
	}
	return nil
}

func (d *Decoder) markers(found []tally.Marker) {
	for _, m := range found {
		d.add(tally.Event{Kind: tally.EventMarker, At: m.At, Marker: m})
	}
}
