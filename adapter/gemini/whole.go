package gemini

import (
	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// whole decodes a legacy chat record: one ConversationRecord {sessionId,
// projectHash, startTime, lastUpdated, messages[], summary?, kind?}
// written whole (pretty-printed) on every change. The file is folded from
// scratch each time, so the decoder starts from scratch too.
func (d *Decoder) whole(doc []byte) error {
	d.st = state{HaveTitle: d.info.List != "", Parsed: d.st.Parsed}
	v, err := d.parse(doc)
	if err != nil {
		return err
	}
	if v.Get("sessionId") == nil && v.Get("messages") == nil {
		return errText("is not a Gemini CLI chat record (no sessionId, no messages)")
	}
	meta, err := readMeta(v)
	if err != nil {
		return err
	}
	if arr := v.Get("messages"); arr != nil {
		msgs, err := d.readMessages(arr)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			d.applyMessage(m, 0)
		}
	}
	d.applyMeta(meta)
	d.sync(0, meta.updated)
	// Nothing newer than the document itself is read for activity: it
	// is taken here, from its last message.
	if !meta.updated.IsZero() {
		sig := tally.SignalNone
		if msgs := v.GetArray("messages"); len(msgs) > 0 {
			sig = chatSignal(msgs[len(msgs)-1])
		}
		d.add(tally.Event{Kind: tally.EventMeta, At: meta.updated, Meta: tally.Meta{Signal: sig}})
	}
	return nil
}

// chatSignal says whose turn a chat message shows: a prompt or a tool call
// means the agent works; an answer without tool calls, or a call awaiting
// approval, hands the turn to the user. Info, warning and error notes say
// nothing.
func chatSignal(m *fastjson.Value) tally.Signal {
	switch string(m.GetStringBytes("type")) {
	case "user":
		return tally.SignalWorking
	case "gemini":
		calls := m.GetArray("toolCalls")
		if len(calls) == 0 {
			return tally.SignalWaiting
		}
		for _, c := range calls {
			if string(c.GetStringBytes("status")) == "awaiting_approval" {
				return tally.SignalWaiting
			}
		}
		return tally.SignalWorking
	}
	return tally.SignalNone
}
