package acp

import (
	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// plan is a full replacement of the agent's list.
func plan(u *fastjson.Value, emit func(tally.Event)) error {
	v := u.Get("entries")
	if v == nil || v.Type() != fastjson.TypeArray {
		return tally.Errorf(tally.CodeInvalid, op, "plan without an entries array")
	}
	entries, _ := v.Array()
	items := make([]tally.Item, 0, len(entries))
	for _, e := range entries {
		it := item(e, "content")
		it.Priority = string(e.GetStringBytes("priority"))
		items = append(items, it)
	}
	emit(tally.Event{Kind: tally.EventSnapshot, Items: items})
	return nil
}

// item reads one list entry whose text is under key. An entry without text
// is kept here: the fold skips and counts it, as for every agent.
func item(e *fastjson.Value, key string) tally.Item {
	it := tally.Item{Title: string(e.GetStringBytes(key)), ActiveForm: string(e.GetStringBytes("activeForm"))}
	it.Status, it.RawStatus = tally.StatusOf(string(e.GetStringBytes("status")))
	return it
}

// toolCall upserts one runtime item, and reads a todo list out of the
// call's rawInput when it carries one.
func toolCall(u *fastjson.Value, emit func(tally.Event)) error {
	id := string(u.GetStringBytes("toolCallId"))
	if id == "" {
		return tally.Errorf(tally.CodeInvalid, op, "tool call without a toolCallId")
	}
	p := tally.TaskPatch{ID: id}
	if t := u.Get("title"); t != nil && t.Type() == fastjson.TypeString {
		title := string(t.GetStringBytes())
		p.Subject = &title
	}
	if s := u.Get("status"); s != nil && s.Type() == fastjson.TypeString {
		st, raw := tally.StatusOf(string(s.GetStringBytes()))
		p.Status, p.RawStatus = &st, raw
	}
	create := p
	if create.Subject == nil {
		// An update for a call whose announcement was missed may have no
		// title: the call is named by its id until one comes.
		named := id // a copy, so that only this case allocates
		create.Subject = &named
	}
	emit(tally.Event{Kind: tally.EventTaskCreate, List: tally.RuntimeList, ToolUseID: id, Patch: create})
	emit(tally.Event{Kind: tally.EventTaskUpdate, List: tally.RuntimeList, Patch: p})
	done, failed := p.Status != nil && *p.Status == tally.StatusCompleted, p.Status != nil && *p.Status == tally.StatusFailed
	if todos := u.Get("rawInput", "todos"); todos != nil && todos.Type() == fastjson.TypeArray && !failed {
		// The call's input: it counts once the call completes, and is
		// taken back if it fails.
		emit(tally.Event{Kind: tally.EventSnapshot, ToolUseID: id, Items: rawTodos(todos), Pending: !done})
	} else if items, ok := contentTodos(u.GetArray("content")); ok {
		emit(tally.Event{Kind: tally.EventSnapshot, ToolUseID: id, Items: items})
	}
	switch {
	case failed:
		emit(tally.Event{Kind: tally.EventCallFailed, ToolUseID: id})
	case done:
		emit(tally.Event{Kind: tally.EventCallSucceeded, ToolUseID: id})
	}
	return nil
}

// rawTodos reads write_todos ({description, status}) and TodoWrite
// ({content, status, activeForm}) inputs.
func rawTodos(todos *fastjson.Value) []tally.Item {
	arr, _ := todos.Array()
	items := make([]tally.Item, 0, len(arr))
	for _, e := range arr {
		key := "content"
		if e.Get("description") != nil {
			key = "description"
		}
		items = append(items, item(e, key))
	}
	return items
}
