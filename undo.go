package tally

import "slices"

// MaxUndo bounds the calls a List can take back. A result follows its
// call within moments, so only the newest few are ever waiting.
const MaxUndo = 16

// Undo is how to take back one call a List applied before its result was
// read (Event.Pending), should the result say it failed.
type Undo struct {
	Call string `json:"call"`
	// Snapshot: the call replaced the todos, which were Todos before it.
	Snapshot bool   `json:"snapshot,omitempty"`
	Todos    []Item `json:"todos,omitempty"`
	// Before and After are a task update's task before and after it;
	// Deleted, that it removed the task, which stood At in the list.
	Before  Task `json:"before,omitzero"`
	After   Task `json:"after,omitzero"`
	Deleted bool `json:"deleted,omitempty"`
	At      int  `json:"at,omitempty"`
	// Links are the blockers the update added (or, deleting, removed).
	Links []Link `json:"links,omitempty"`
}

// Link is one side of a dependency: task Task blocks Blocks, or is
// blocked by BlockedBy.
type Link struct {
	Task      string `json:"task"`
	Blocks    string `json:"blocks,omitempty"`
	BlockedBy string `json:"blockedBy,omitempty"`
}

func (l *List) keep(u Undo) {
	if len(l.Undo) == MaxUndo {
		l.Undo = append(l.Undo[:0], l.Undo[1:]...)
	}
	l.Undo = append(l.Undo, u)
}

// keepTodos remembers the todos a pending snapshot replaces. A snapshot
// whose result is not awaited replaces whatever came before it for good:
// the earlier ones can no longer be taken back.
func (l *List) keepTodos(ev Event) {
	if !ev.Pending || ev.ToolUseID == "" {
		l.Undo = slices.DeleteFunc(l.Undo, func(u Undo) bool { return u.Snapshot })
		return
	}
	l.keep(Undo{Call: ev.ToolUseID, Snapshot: true, Todos: cloneItems(l.Todos, SourceTodo)})
}

// forgetTasks drops what would take back task calls: a full resync says
// what the tasks are after all of them.
func (l *List) forgetTasks() {
	l.Undo = slices.DeleteFunc(l.Undo, func(u Undo) bool { return !u.Snapshot })
}

// settle forgets how to take back call, which succeeded. A snapshot that
// succeeded also settles the snapshots before it, whatever their results
// say later: it replaced what they did.
func (l *List) settle(call string) {
	i := l.undoOf(call)
	if i < 0 {
		return
	}
	snapshot := l.Undo[i].Snapshot
	l.Undo = slices.Delete(l.Undo, i, i+1)
	if !snapshot {
		return
	}
	kept := l.Undo[:0]
	for j, u := range l.Undo {
		if j >= i || !u.Snapshot {
			kept = append(kept, u)
		}
	}
	l.Undo = kept
}

func (l *List) undoOf(call string) int {
	if call == "" {
		return -1
	}
	return slices.IndexFunc(l.Undo, func(u Undo) bool { return u.Call == call })
}

// takeBack undoes call, which failed, and reports whether the list
// changed. A failed create leaves no task: it never got an id, so the
// task it made is found by its call.
func (l *List) takeBack(call string) bool {
	if call == "" {
		return false
	}
	i := l.undoOf(call)
	if i < 0 {
		n := len(l.Tasks)
		l.Tasks = slices.DeleteFunc(l.Tasks, func(t Task) bool { return t.ToolUseID == call && t.ID == "" })
		return len(l.Tasks) != n
	}
	u := l.Undo[i]
	l.Undo = slices.Delete(l.Undo, i, i+1)
	switch {
	case u.Snapshot:
		// A later snapshot still waiting takes over what this one
		// replaced; with none, the todos go back to what they were.
		for j := i; j < len(l.Undo); j++ {
			if l.Undo[j].Snapshot {
				l.Undo[j].Todos = u.Todos
				return false
			}
		}
		l.Todos = u.Todos
		return true
	case u.Deleted:
		if l.task(u.Before.ID) != nil {
			return false
		}
		at := min(u.At, len(l.Tasks))
		l.Tasks = slices.Insert(l.Tasks, at, u.Before)
		for _, k := range u.Links {
			if o := l.task(k.Task); o != nil {
				o.Blocks = addUnique(o.Blocks, nonEmpty(k.Blocks)...)
				o.BlockedBy = addUnique(o.BlockedBy, nonEmpty(k.BlockedBy)...)
			}
		}
		return true
	}
	t := l.task(u.Before.ID)
	if t == nil {
		return false
	}
	restoreFields(&t.Item, u.Before.Item, u.After.Item)
	for _, k := range u.Links {
		if o := l.task(k.Task); o != nil {
			o.Blocks = remove(o.Blocks, k.Blocks)
			o.BlockedBy = remove(o.BlockedBy, k.BlockedBy)
		}
	}
	return true
}

// restoreFields puts back each field an update changed from before to
// after, unless something changed it again since.
func restoreFields(it *Item, before, after Item) {
	back := func(cur *string, b, a string) {
		if b != a && *cur == a {
			*cur = b
		}
	}
	back(&it.Title, before.Title, after.Title)
	back(&it.Description, before.Description, after.Description)
	back(&it.ActiveForm, before.ActiveForm, after.ActiveForm)
	back(&it.Owner, before.Owner, after.Owner)
	if (before.Status != after.Status || before.RawStatus != after.RawStatus) &&
		it.Status == after.Status && it.RawStatus == after.RawStatus {
		it.Status, it.RawStatus = before.Status, before.RawStatus
	}
}

func cloneTask(t Task) Task {
	t.Blocks = append([]string(nil), t.Blocks...)
	t.BlockedBy = append([]string(nil), t.BlockedBy...)
	return t
}

func nonEmpty(id string) []string {
	if id == "" {
		return nil
	}
	return []string{id}
}
