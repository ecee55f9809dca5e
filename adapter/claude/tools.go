package claude

import (
	"errors"
	"strconv"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// toolName is a tool the decoder reads.
type toolName string

const (
	toolTodoWrite  toolName = "TodoWrite"
	toolTaskCreate toolName = "TaskCreate"
	toolTaskUpdate toolName = "TaskUpdate"
	toolTaskList   toolName = "TaskList"
	// The calls that start a sub-agent (Task up to 1.0.x).
	toolAgent     toolName = "Agent"
	toolAgentTask toolName = "Task"
)

// toolCalls reads every tool_use block of an assistant line: one API
// message is usually split one block per line, but nothing forbids several
// blocks in one line.
func (d *Decoder) toolCalls(l line, list string) error {
	at := l.at()
	for _, b := range l.v.GetArray("message", "content") {
		if string(b.GetStringBytes("type")) != "tool_use" {
			continue
		}
		id, _, err := str(b, "id")
		if err != nil {
			return err
		}
		input := b.Get("input")
		name := toolName(b.GetStringBytes("name"))
		var ev tally.Event
		kind := callChange
		switch name {
		case toolTodoWrite:
			ev.Kind = tally.EventSnapshot
			ev.Items, err = todos(input)
		case toolTaskCreate:
			ev.Kind, kind = tally.EventTaskCreate, callCreate
			ev.Patch, err = patch(input, false)
		case toolTaskUpdate:
			ev.Kind = tally.EventTaskUpdate
			ev.Patch, err = patch(input, true)
		}
		if ev.Kind != 0 {
			if err != nil {
				if id == "" {
					return err
				}
				// Claude Code rejects a call it cannot read either: that
				// its result is an error is all that is said of it.
				d.await(pendingCall{ID: id, Kind: callUnread, List: list, Why: string(name) + " call " + id + ": " + err.Error()})
				continue
			}
			ev.List, ev.ToolUseID, ev.At = list, id, at
			ev.Pending = kind == callChange && id != ""
			d.add(ev)
			d.await(pendingCall{ID: id, Kind: kind, List: list})
			continue
		}
		switch name {
		case toolTaskList:
			d.await(pendingCall{ID: id, Kind: callList, List: list})
		case toolAgent, toolAgentTask:
			if d.stream {
				d.rememberAgent(id, input)
			}
		}
	}
	return nil
}

// markers reads the progress markers in the text blocks of an assistant
// line, in order; two blocks of one line number their markers on.
func (d *Decoder) markers(l line, list string) {
	var found []tally.Marker
	at := l.at()
	for _, b := range l.v.GetArray("message", "content") {
		if string(b.GetStringBytes("type")) == "text" {
			found = marker.Append(found, b.GetStringBytes("text"), d.off, at)
		}
	}
	for _, m := range found {
		d.add(tally.Event{Kind: tally.EventMarker, List: list, At: at, Marker: m})
	}
}

// todos reads a TodoWrite input: {content, status, activeForm} items, or
// legacy {id, content, status, priority} ones.
func todos(input *fastjson.Value) ([]tally.Item, error) {
	if input == nil {
		return nil, errors.New("TodoWrite call has no input")
	}
	tv := input.Get("todos")
	if tv == nil || tv.Type() != fastjson.TypeArray {
		return nil, errors.New("TodoWrite input has no todos array")
	}
	arr, _ := tv.Array()
	items := make([]tally.Item, 0, len(arr))
	for _, t := range arr {
		var it tally.Item
		var err error
		if it.Title, _, err = str(t, "content"); err != nil {
			return nil, err
		}
		if it.ActiveForm, _, err = str(t, "activeForm"); err != nil {
			return nil, err
		}
		if it.ID, err = idField(t, "id"); err != nil {
			return nil, err
		}
		if it.Priority, _, err = str(t, "priority"); err != nil {
			return nil, err
		}
		word, _, err := str(t, "status")
		if err != nil {
			return nil, err
		}
		it.Status, it.RawStatus = tally.StatusOf(word)
		items = append(items, it)
	}
	return items, nil
}

// deletedWord is TaskUpdate's status meaning "remove the task".
const deletedWord = "deleted"

// patch reads a TaskCreate (update=false) or TaskUpdate input.
func patch(input *fastjson.Value, update bool) (tally.TaskPatch, error) {
	var p tally.TaskPatch
	if input == nil || input.Type() != fastjson.TypeObject {
		return p, errors.New("task call input is not an object")
	}
	for key, dst := range map[string]**string{
		"subject": &p.Subject, "description": &p.Description,
		"activeForm": &p.ActiveForm, "owner": &p.Owner,
	} {
		s, ok, err := str(input, key)
		if err != nil {
			return p, err
		}
		if ok {
			*dst = &s
		}
	}
	if !update {
		return p, nil
	}
	var err error
	if p.ID, err = idField(input, "taskId"); err != nil {
		return p, err
	}
	if p.ID == "" {
		return p, errors.New("TaskUpdate call has no taskId")
	}
	word, ok, err := str(input, "status")
	if err != nil {
		return p, err
	}
	if ok {
		if word == deletedWord {
			p.Deleted = true
		} else {
			s, raw := tally.StatusOf(word)
			p.Status, p.RawStatus = &s, raw
		}
	}
	if p.AddBlocks, err = ids(input, "addBlocks"); err != nil {
		return p, err
	}
	if p.AddBlockedBy, err = ids(input, "addBlockedBy"); err != nil {
		return p, err
	}
	return p, nil
}

// idField reads an id the model wrote: a string, or a number it did not
// quote.
func idField(v *fastjson.Value, key string) (string, error) {
	f := v.Get(key)
	if f == nil {
		return "", nil
	}
	switch f.Type() {
	case fastjson.TypeNumber:
		n, err := f.Int64()
		if err != nil {
			return "", errField(key, "is not an integer")
		}
		return strconv.FormatInt(n, 10), nil
	case fastjson.TypeNull:
		return "", nil
	}
	s, _, err := str(v, key)
	return s, err
}

func ids(v *fastjson.Value, key string) ([]string, error) {
	f := v.Get(key)
	if f == nil || f.Type() == fastjson.TypeNull {
		return nil, nil
	}
	arr, err := f.Array()
	if err != nil {
		return nil, errField(key, "is not an array")
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		var s string
		switch e.Type() {
		case fastjson.TypeNumber:
			s = e.String()
		case fastjson.TypeString:
			b, _ := e.StringBytes()
			s = string(b)
		default:
			return nil, errField(key, "holds a value that is not an id")
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}
