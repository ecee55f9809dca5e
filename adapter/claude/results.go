package claude

import (
	"bytes"
	"errors"
	"slices"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// await remembers a call whose result the decoder needs.
func (d *Decoder) await(c pendingCall) {
	if c.ID == "" {
		return
	}
	for _, p := range d.st.Pending {
		if p.ID == c.ID {
			return
		}
	}
	d.st.Pending = append(d.st.Pending, c)
	if n := len(d.st.Pending) - maxPending; n > 0 {
		d.st.Pending = append(d.st.Pending[:0], d.st.Pending[n:]...)
	}
	d.syncPending()
}

func (d *Decoder) syncPending() {
	d.pendingIDs = d.pendingIDs[:0]
	for _, p := range d.st.Pending {
		d.pendingIDs = append(d.pendingIDs, []byte(p.ID))
	}
}

// results reads the tool_result blocks of a user line that answer pending
// calls. The line's toolUseResult belongs to its tool_result only when
// there is exactly one; with several it is ambiguous and each block's text
// is used instead.
func (d *Decoder) results(l line) error {
	blocks := l.v.GetArray("message", "content")
	n := 0
	for _, b := range blocks {
		if string(b.GetStringBytes("type")) == "tool_result" {
			n++
		}
	}
	var structured *fastjson.Value
	if n == 1 {
		if r := l.toolUseResult(); r != nil && r.Type() == fastjson.TypeObject {
			structured = r
		}
	}
	at := l.at()
	for _, b := range blocks {
		if string(b.GetStringBytes("type")) != "tool_result" {
			continue
		}
		id := string(b.GetStringBytes("tool_use_id"))
		i := slices.IndexFunc(d.st.Pending, func(p pendingCall) bool { return p.ID == id })
		if id == "" || i < 0 {
			continue
		}
		call := d.st.Pending[i]
		d.st.Pending = slices.Delete(d.st.Pending, i, i+1)
		d.syncPending()
		if failed(b, structured) {
			// The tool rejected the call: it changed nothing.
			if call.Kind == callChange || call.Kind == callCreate {
				d.add(tally.Event{Kind: tally.EventCallFailed, List: call.List, ToolUseID: id, At: at})
			}
			continue
		}
		switch call.Kind {
		case callChange:
			d.add(tally.Event{Kind: tally.EventCallSucceeded, List: call.List, ToolUseID: id, At: at})
		case callUnread:
			return errors.New(call.Why + ", and it succeeded")
		case callCreate:
			taskID, err := createdID(structured, b)
			if err != nil {
				return err
			}
			if taskID != "" {
				p, err := savedTask(structured)
				if err != nil {
					return err
				}
				p.ID = taskID
				d.add(tally.Event{Kind: tally.EventTaskAssign, List: call.List, ToolUseID: id, At: at, Patch: p})
			}
		case callList:
			if structured == nil {
				continue // text only (sub-agent files): too lossy to resync from
			}
			items, err := taskList(structured)
			if err != nil {
				return err
			}
			if items != nil {
				d.add(tally.Event{Kind: tally.EventTaskResync, List: call.List, ToolUseID: id, At: at, Items: items})
			}
		}
	}
	return nil
}

// failed tells a result saying its call failed: a tool_result marked
// is_error (the tool rejected its input, InputValidationError), or a Task
// tool's own {"success":false} (TaskUpdate of a task that does not exist).
func failed(block, structured *fastjson.Value) bool {
	if block.GetBool("is_error") {
		return true
	}
	if structured == nil {
		return false
	}
	s := structured.Get("success")
	return s != nil && s.Type() == fastjson.TypeFalse
}

// savedTask is the subject and description Claude Code saved for a new
// task, as its result states them (toolUseResult.task): they can differ
// from the call's input, which Claude Code repairs before running it (a
// "title" for the subject, a subject taken from the description or the
// other way round). Nil fields where the result does not say.
func savedTask(structured *fastjson.Value) (tally.TaskPatch, error) {
	var p tally.TaskPatch
	if structured == nil {
		return p, nil
	}
	t := structured.Get("task")
	if t == nil || t.Type() != fastjson.TypeObject {
		return p, nil
	}
	for key, dst := range map[string]**string{"subject": &p.Subject, "description": &p.Description} {
		s, ok, err := str(t, key)
		if err != nil {
			return p, err
		}
		if ok {
			*dst = &s
		}
	}
	return p, nil
}

// createdID is the id Claude Code gave a new task: toolUseResult.task.id,
// else the result text "Task #N created successfully".
func createdID(structured, block *fastjson.Value) (string, error) {
	if structured != nil {
		if t := structured.Get("task"); t != nil && t.Type() == fastjson.TypeObject {
			id, err := idField(t, "id")
			if err != nil || id != "" {
				return id, err
			}
		}
	}
	return idFromText(resultText(block)), nil
}

var (
	createdPrefix = []byte("Task #")
	createdSuffix = []byte(" created successfully")
)

func idFromText(text []byte) string {
	for {
		i := bytes.Index(text, createdPrefix)
		if i < 0 {
			return ""
		}
		text = text[i+len(createdPrefix):]
		n := 0
		for n < len(text) && text[n] >= '0' && text[n] <= '9' {
			n++
		}
		if n > 0 && bytes.HasPrefix(text[n:], createdSuffix) {
			return string(text[:n])
		}
	}
}

// resultText is a tool_result's text: its content string, or its text
// blocks joined.
func resultText(block *fastjson.Value) []byte {
	c := block.Get("content")
	if c == nil {
		return nil
	}
	if s, err := c.StringBytes(); err == nil {
		return s
	}
	var out []byte
	for _, e := range c.GetArray() {
		out = append(out, e.GetStringBytes("text")...)
		out = append(out, '\n')
	}
	return out
}

// taskList reads TaskList's {tasks:[{id, subject, status, owner?,
// blockedBy[]}]}, a full snapshot. nil means the result had no such list.
func taskList(r *fastjson.Value) ([]tally.Item, error) {
	tv := r.Get("tasks")
	if tv == nil {
		return nil, nil
	}
	arr, err := tv.Array()
	if err != nil {
		return nil, errors.New("TaskList result tasks is not an array")
	}
	items := make([]tally.Item, 0, len(arr))
	for _, t := range arr {
		var it tally.Item
		if it.ID, err = idField(t, "id"); err != nil {
			return nil, err
		}
		if it.Title, _, err = str(t, "subject"); err != nil {
			return nil, err
		}
		if it.Owner, _, err = str(t, "owner"); err != nil {
			return nil, err
		}
		word, _, err := str(t, "status")
		if err != nil {
			return nil, err
		}
		it.Status, it.RawStatus = tally.StatusOf(word)
		if it.BlockedBy, err = ids(t, "blockedBy"); err != nil {
			return nil, err
		}
		if it.Blocks, err = ids(t, "blocks"); err != nil {
			return nil, err
		}
		it.Source = tally.SourceTask
		items = append(items, it)
	}
	return items, nil
}
