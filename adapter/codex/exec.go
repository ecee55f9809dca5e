package codex

import (
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// execLine handles a `codex exec --json` event. These lines carry no time,
// so the events leave At zero.
func (d *decoder) execLine(line []byte, off int64, emit func(tally.Event)) error {
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	typ := string(v.GetStringBytes("type"))
	switch typ {
	case "thread.started":
		id := string(v.GetStringBytes("thread_id"))
		if id == "" {
			return invalid("thread.started without thread_id")
		}
		emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: id}})
	case "turn.started":
		emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Signal: tally.SignalWorking}})
	case "turn.completed", "turn.failed":
		// The turn is over; the list stays as the agent left it.
		emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Signal: tally.SignalWaiting, TurnOver: true}})
	case "item.completed":
		if item := v.Get("item"); item != nil && string(item.GetStringBytes("type")) == "agent_message" {
			// The message is final only when completed; earlier events
			// of it would read its markers twice.
			for _, m := range marker.Append(nil, item.GetStringBytes("text"), off, time.Time{}) {
				emit(tally.Event{Kind: tally.EventMarker, Marker: m})
			}
			return nil
		}
		return d.execItem(v.Get("item"), off, emit)
	default:
		if strings.HasPrefix(typ, "item.") {
			return d.execItem(v.Get("item"), off, emit)
		}
	}
	return nil
}

// execItem reads a todo_list item: {id, type|item_type, items:[{text,
// completed}]}. Every event carries the whole list. The boolean cannot tell
// in_progress from pending, so an unfinished item is pending and Lossy.
func (d *decoder) execItem(item *fastjson.Value, off int64, emit func(tally.Event)) error {
	if item == nil || item.Type() != fastjson.TypeObject {
		return invalid("item event without an item object")
	}
	kind := item.GetStringBytes("type")
	if kind == nil {
		kind = item.GetStringBytes("item_type") // builds of Sept 2025
	}
	if string(kind) != "todo_list" {
		return nil
	}
	list := item.Get("items")
	if list == nil || list.Type() != fastjson.TypeArray {
		return invalid("todo_list %s: items is not a list", item.GetStringBytes("id"))
	}
	arr := list.GetArray()
	items := make([]tally.Item, 0, len(arr))
	for i, e := range arr {
		text, done := e.Get("text"), e.Get("completed")
		if text == nil || text.Type() != fastjson.TypeString || done == nil {
			return invalid("todo_list %s: item %d lacks text or completed", item.GetStringBytes("id"), i)
		}
		it := tally.Item{Title: string(text.GetStringBytes()), Source: tally.SourceTodo}
		switch done.Type() {
		case fastjson.TypeTrue:
			it.Status = tally.StatusCompleted
		case fastjson.TypeFalse:
			it.Status, it.Lossy = tally.StatusPending, true
		default:
			return invalid("todo_list %s: item %d: completed is not a boolean", item.GetStringBytes("id"), i)
		}
		items = append(items, it)
	}
	// The item id names the turn's list, not this version of it: every
	// update reuses it. The line's offset makes each version its own
	// event, so re-reading a line is a no-op but a later update applies.
	id := string(item.GetStringBytes("id")) + "@" + strconv.FormatInt(off, 10)
	emit(tally.Event{Kind: tally.EventSnapshot, ToolUseID: id, Items: items})
	return nil
}
