package claude

import (
	"bytes"
	"errors"
	"slices"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
	"github.com/valyala/fastjson"
)

// await remembers a call whose result the decoder needs.
func (d *Decoder) await(c pendingCall) {
	if c.ID == "" {
		return
	}
	for i := range d.st.Pending {
		if p := &d.st.Pending[i]; p.ID == c.ID {
			p.Runtime = p.Runtime || c.Runtime
			if p.Kind == 0 {
				p.Kind, p.List, p.Why = c.Kind, c.List, c.Why
			}
			return
		}
	}
	d.st.Pending = append(d.st.Pending, c)
	d.pendingIDs = append(d.pendingIDs, []byte(c.ID))
	if n := len(d.st.Pending) - maxPending; n > 0 {
		d.st.Pending = append(d.st.Pending[:0], d.st.Pending[n:]...)
		d.pendingIDs = append(d.pendingIDs[:0], d.pendingIDs[n:]...)
	}
}

// syncPending makes pendingIDs, the calls awaited as bytes, from the
// saved state; await and answered keep the two in step.
func (d *Decoder) syncPending() {
	d.pendingIDs = d.pendingIDs[:0]
	for _, p := range d.st.Pending {
		d.pendingIDs = append(d.pendingIDs, []byte(p.ID))
	}
}

// answered forgets the awaited call i, whose result was read.
func (d *Decoder) answered(i int) {
	d.st.Pending = slices.Delete(d.st.Pending, i, i+1)
	d.pendingIDs = slices.Delete(d.pendingIDs, i, i+1)
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
		d.answered(i)
		if call.Runtime {
			toolrun.End(d.add, id, failed(b, structured), at)
		}
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

var (
	toolUseIDKey = []byte(`"tool_use_id":"`)
	isErrorKey   = []byte(`"is_error"`)
	successKey   = []byte(`"success"`)
)

// succeeded settles, without parsing the line, the calls it answers when
// they are all TodoWrite or TaskUpdate calls (callChange) and nothing in
// it can say one failed (no is_error, no success key, whatever their
// values): their results say only that, and the lines
// holding them (TodoWrite's repeats the whole list twice) are many. It
// reports false, having done nothing, when the line must be parsed.
func (d *Decoder) succeeded(line []byte, emit func(tally.Event)) bool {
	if bytes.Contains(line, isErrorKey) || bytes.Contains(line, successKey) {
		return false
	}
	var answers [maxPending]bool
	n := 0
	for k, id := range d.pendingIDs {
		for rest := line; ; {
			i := bytes.Index(rest, toolUseIDKey)
			if i < 0 {
				break
			}
			rest = rest[i+len(toolUseIDKey):]
			if bytes.HasPrefix(rest, id) && len(rest) > len(id) && rest[len(id)] == '"' {
				if d.st.Pending[k].Kind != callChange {
					return false
				}
				answers[k] = true
				n++
				break
			}
		}
	}
	if n == 0 {
		return false
	}
	var at time.Time
	if stamp := lineStamp(line); stamp != nil {
		at, _ = time.Parse(time.RFC3339Nano, string(stamp))
	}
	for k := len(d.st.Pending) - 1; k >= 0; k-- {
		if answers[k] {
			p := d.st.Pending[k]
			d.answered(k)
			emit(tally.Event{Kind: tally.EventCallSucceeded, List: p.List, ToolUseID: p.ID, At: at})
		}
	}
	return true
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
	subject, ok, err := str(t, "subject")
	if err != nil {
		return p, err
	}
	if ok {
		p.Subject = &subject
	}
	description, ok, err := str(t, "description")
	if err != nil {
		return p, err
	}
	if ok {
		p.Description = &description
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
