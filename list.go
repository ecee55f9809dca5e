package tally

import (
	"slices"
	"strings"
	"time"
)

// List is the fold of one agent's todo events: the state of one list of one
// (session, sub-agent). It holds both mechanisms Claude Code has — snapshot
// todos and incremental tasks — because one agent can use both; surfaces
// show them as one list, todos first, since a reader asks what the agent
// is doing, not which tool it used to say so.
//
// The zero List is empty and ready. Apply is deterministic, and an event
// applied again right after itself changes nothing, so a line an agent
// wrote twice cannot duplicate an item or take the list back a step.
//
// That is all the dedup memory is for, and why it is bounded: a re-read
// after a crash or a missed notification starts from the committed offset
// with the state committed with it, and a file that shrank is folded again
// from scratch, so neither ever applies an event twice. A TaskCreate is
// recognised by its call id on the task it made however old it is.
type List struct {
	// Name is what the agent calls the list's owner: a sub-agent's
	// description. "" when the log does not say.
	Name  string `json:"name,omitempty"`
	Todos []Item `json:"todos,omitempty"`
	Tasks []Task `json:"tasks,omitempty"`
	// Seen holds the keys (event kind and tool-use id) of the newest
	// events applied, oldest first, at most MaxSeen.
	Seen []string `json:"seen,omitempty"`
	// Early holds the task ids reported for TaskCreate calls not read yet,
	// oldest first, at most MaxEarly. A create that never comes (a log cut
	// short, a result without its call) leaves its id here only until
	// newer ones push it out. Saved states of older versions kept every
	// such id in a map (earlyIds), which is ignored on load.
	Early []EarlyID `json:"early,omitempty"`
	// Orphans counts updates for tasks the list does not hold: ignored
	// (there is nothing to update, and inventing a task would show work
	// nobody created), and counted so they are not invisible.
	Orphans int `json:"orphans,omitempty"`
	// Blank counts items that came without text and were skipped (see
	// HasText).
	Blank int `json:"blank,omitempty"`
	// Earlier counts the finished calls a runtime list (RuntimeList) let
	// go to stay small: see MaxRuntime.
	Earlier   RuntimeCount `json:"earlier,omitzero"`
	UpdatedAt time.Time    `json:"updatedAt"`
	// Undo holds, oldest first, how to take back the calls applied whose
	// result is still to come (Event.Pending), at most MaxUndo.
	Undo []Undo `json:"undo,omitempty"`
}

// Task is a SourceTask item with the tool call that created it, which is how
// its id, reported later in the call's result, finds it.
type Task struct {
	Item
	ToolUseID string `json:"toolUseId,omitempty"`
}

// HasText tells an item that says something. An item without text (an
// empty or blank title) is no step of a list: it is never shown, never
// counted in progress, and the fold counts it in List.Blank instead. This
// is the one place the rule is kept, for every agent and every surface.
func HasText(it *Item) bool { return strings.TrimSpace(it.Title) != "" }

// Items is the list as surfaces show it: todos, then tasks. A task created
// without a subject is left out until an update gives it one.
func (l *List) Items() []Item {
	out := make([]Item, 0, len(l.Todos)+len(l.Tasks))
	out = append(out, l.Todos...)
	for _, t := range l.Tasks {
		if HasText(&t.Item) {
			out = append(out, t.Item)
		}
	}
	// A copy that shares no slice with the list: readers on other
	// goroutines keep it while the fold goes on.
	for i := range out {
		out[i].Blocks = append([]string(nil), out[i].Blocks...)
		out[i].BlockedBy = append([]string(nil), out[i].BlockedBy...)
	}
	return out
}

// Len is the number of items.
func (l *List) Len() int { return len(l.Todos) + len(l.Tasks) }

// MaxSeen bounds the keys a List remembers of the events it applied.
const MaxSeen = 32

// MaxEarly bounds the task ids a List keeps for creates not read yet. A
// result follows its call within a few lines, so only the newest matter.
const MaxEarly = 32

// EarlyID is the task id a TaskCreate call's result reported before the
// call itself was read.
type EarlyID struct {
	ToolUseID string `json:"call"`
	ID        string `json:"id"`
}

// eventKeyPrefix keys Seen by the kind of list event. The kinds after
// EventMerge (EventMeta, EventMarker) are facts of the session, which
// FileState.Apply folds; a List ignores them.
var eventKeyPrefix = [...]string{
	EventSnapshot:   "s:",
	EventTaskCreate: "c:",
	EventTaskAssign: "a:",
	EventTaskUpdate: "u:",
	EventTaskResync: "r:",
	EventMerge:      "m:",
}

// Saw tells whether the list applied ev already: an event of its kind and
// tool call among the newest it applied (Seen), or the create of a task it
// holds. An event without a tool call is never known to be seen.
func (l *List) Saw(ev Event) bool {
	if ev.ToolUseID == "" || ev.Kind == 0 || int(ev.Kind) >= len(eventKeyPrefix) {
		return false
	}
	if slices.Contains(l.Seen, eventKeyPrefix[ev.Kind]+ev.ToolUseID) {
		return true
	}
	if ev.Kind == EventTaskCreate {
		for _, t := range l.Tasks {
			if t.ToolUseID == ev.ToolUseID {
				return true
			}
		}
	}
	return false
}

// Apply folds one event into the list. It reports whether the list changed
// in a way a reader would see, and false for events already applied or
// that are not about a list.
func (l *List) Apply(ev Event) bool {
	switch ev.Kind {
	case EventCallFailed:
		return l.takeBack(ev.ToolUseID)
	case EventCallSucceeded:
		l.settle(ev.ToolUseID)
		return false
	}
	if ev.Kind == 0 || int(ev.Kind) >= len(eventKeyPrefix) || eventKeyPrefix[ev.Kind] == "" {
		return false
	}
	if ev.ToolUseID != "" && !l.see(eventKeyPrefix[ev.Kind]+ev.ToolUseID) {
		return false
	}
	if ev.At.After(l.UpdatedAt) {
		l.UpdatedAt = ev.At
	}
	switch ev.Kind {
	case EventSnapshot:
		l.keepTodos(ev)
		l.Todos = cloneItems(l.withText(ev.Items), SourceTodo)
		return true
	case EventTaskCreate:
		return l.create(ev)
	case EventTaskAssign:
		return l.assign(ev.ToolUseID, ev.Patch)
	case EventTaskUpdate:
		return l.update(ev)
	case EventTaskResync:
		l.forgetTasks()
		l.resync(l.withText(ev.Items))
		return true
	case EventMerge:
		l.merge(ev.Items)
		return true
	}
	return false
}

// see remembers key and reports whether it is new. The newest keys are
// looked at first: a repeated line follows its first copy.
func (l *List) see(key string) bool {
	for i := len(l.Seen) - 1; i >= 0; i-- {
		if l.Seen[i] == key {
			return false
		}
	}
	if len(l.Seen) == MaxSeen {
		l.Seen = append(l.Seen[:0], l.Seen[1:]...)
	}
	l.Seen = append(l.Seen, key)
	return true
}

// withText is items without those that have no text, which it counts.
func (l *List) withText(items []Item) []Item {
	n := 0
	for i := range items {
		if HasText(&items[i]) {
			n++
		}
	}
	if n == len(items) {
		return items
	}
	l.Blank += len(items) - n
	out := make([]Item, 0, n)
	for i := range items {
		if HasText(&items[i]) {
			out = append(out, items[i])
		}
	}
	return out
}

func cloneItems(items []Item, src Source) []Item {
	out := make([]Item, len(items))
	for i, it := range items {
		it.Source = src
		it.Blocks = append([]string(nil), it.Blocks...)
		it.BlockedBy = append([]string(nil), it.BlockedBy...)
		out[i] = it
	}
	return out
}

func (l *List) task(id string) *Task {
	if id == "" {
		return nil
	}
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			return &l.Tasks[i]
		}
	}
	return nil
}

// create appends a task. It is pending unless the create itself states a
// status: a task nobody started has not started.
func (l *List) create(ev Event) bool {
	if ev.ToolUseID != "" {
		for i := range l.Tasks {
			if l.Tasks[i].ToolUseID == ev.ToolUseID {
				return false // this call's task is already there
			}
		}
	}
	t := Task{Item: Item{Status: StatusPending, Source: SourceTask}, ToolUseID: ev.ToolUseID}
	p := ev.Patch
	t.ID = p.ID
	if t.ID == "" && ev.ToolUseID != "" {
		t.ID = l.takeEarly(ev.ToolUseID)
	}
	if t.ID != "" && l.task(t.ID) != nil {
		// Already known from a resync: the create only adds what the
		// snapshot lacked.
		old := l.task(t.ID)
		old.ToolUseID = ev.ToolUseID
		patchFields(&old.Item, p)
		return true
	}
	patchFields(&t.Item, p)
	if p.Status != nil {
		t.Status, t.RawStatus = *p.Status, p.RawStatus
	}
	if !HasText(&t.Item) {
		l.Blank++ // kept for its id, shown once an update names it
	}
	l.Tasks = append(l.Tasks, t)
	l.link(t.ID, p.AddBlocks, p.AddBlockedBy)
	return true
}

// assign gives the task created by call toolUseID its id, p.ID, and the
// subject and description the agent says it saved (p.Subject,
// p.Description, when the result states them: they are what the agent
// made of the call, which it may have repaired). If a resync already
// brought a task with that id, the two are one task: the resync's copy
// (which has the status) absorbs the create's fields.
func (l *List) assign(toolUseID string, p TaskPatch) bool {
	id := p.ID
	if id == "" || toolUseID == "" {
		return false
	}
	saved := TaskPatch{Subject: p.Subject, Description: p.Description}
	for i := range l.Tasks {
		t := &l.Tasks[i]
		if t.ToolUseID != toolUseID {
			continue
		}
		if t.ID == id {
			before := t.Item
			patchFields(&t.Item, saved)
			return t.Title != before.Title || t.Description != before.Description
		}
		if dup := l.task(id); dup != nil {
			if dup.ActiveForm == "" {
				dup.ActiveForm = t.ActiveForm
			}
			if dup.Description == "" {
				dup.Description = t.Description
			}
			patchFields(&dup.Item, saved)
			dup.ToolUseID = toolUseID
			l.Tasks = append(l.Tasks[:i], l.Tasks[i+1:]...)
			return true
		}
		t.ID = id
		patchFields(&t.Item, saved)
		return true
	}
	l.takeEarly(toolUseID) // a second result for the call: the newest wins
	if len(l.Early) == MaxEarly {
		l.Early = append(l.Early[:0], l.Early[1:]...)
	}
	l.Early = append(l.Early, EarlyID{ToolUseID: toolUseID, ID: id})
	return false
}

// takeEarly removes and returns the id kept for call toolUseID, "" if none.
func (l *List) takeEarly(toolUseID string) string {
	for i, e := range l.Early {
		if e.ToolUseID == toolUseID {
			l.Early = append(l.Early[:i], l.Early[i+1:]...)
			return e.ID
		}
	}
	return ""
}

func (l *List) update(ev Event) bool {
	p := ev.Patch
	t := l.task(p.ID)
	if t == nil {
		l.Orphans++
		return false
	}
	u := Undo{Call: ev.ToolUseID, Before: cloneTask(*t)}
	if p.Deleted {
		// A deleted task is removed, not shown as completed: the work was
		// dropped, not done. As Claude Code does, its id is also dropped
		// from the other tasks' blockers.
		for i := range l.Tasks {
			if l.Tasks[i].ID == p.ID {
				u.At, u.Deleted = i, true
				l.Tasks = append(l.Tasks[:i], l.Tasks[i+1:]...)
				break
			}
		}
		for i := range l.Tasks {
			o := &l.Tasks[i]
			if slices.Contains(o.Blocks, p.ID) {
				u.Links = append(u.Links, Link{Task: o.ID, Blocks: p.ID})
			}
			if slices.Contains(o.BlockedBy, p.ID) {
				u.Links = append(u.Links, Link{Task: o.ID, BlockedBy: p.ID})
			}
			o.Blocks = remove(o.Blocks, p.ID)
			o.BlockedBy = remove(o.BlockedBy, p.ID)
		}
	} else {
		patchFields(&t.Item, p)
		if p.Status != nil {
			t.Status, t.RawStatus = *p.Status, p.RawStatus
		}
		u.After = cloneTask(*t)
		u.Links = l.link(p.ID, p.AddBlocks, p.AddBlockedBy)
	}
	if ev.Pending && ev.ToolUseID != "" {
		l.keep(u)
	}
	return true
}

func patchFields(it *Item, p TaskPatch) {
	if p.Subject != nil {
		it.Title = *p.Subject
	}
	if p.Description != nil {
		it.Description = *p.Description
	}
	if p.ActiveForm != nil {
		it.ActiveForm = *p.ActiveForm
	}
	if p.Owner != nil {
		it.Owner = *p.Owner
	}
}

// link records dependencies both ways: each task holds Blocks and
// BlockedBy, so either side can be shown without searching the list.
// Blockers only grow. It returns the links it added.
func (l *List) link(id string, blocks, blockedBy []string) []Link {
	t := l.task(id)
	if t == nil {
		return nil
	}
	var added []Link
	add := func(t *Task, blocks, blockedBy string) {
		if blocks != "" && !slices.Contains(t.Blocks, blocks) {
			t.Blocks = append(t.Blocks, blocks)
			added = append(added, Link{Task: t.ID, Blocks: blocks})
		}
		if blockedBy != "" && !slices.Contains(t.BlockedBy, blockedBy) {
			t.BlockedBy = append(t.BlockedBy, blockedBy)
			added = append(added, Link{Task: t.ID, BlockedBy: blockedBy})
		}
	}
	for _, b := range blocks {
		add(t, b, "")
		if o := l.task(b); o != nil {
			add(o, "", id)
		}
	}
	for _, b := range blockedBy {
		add(t, "", b)
		if o := l.task(b); o != nil {
			add(o, id, "")
		}
	}
	return added
}

func remove(set []string, id string) []string {
	for i, s := range set {
		if s == id {
			return append(set[:i], set[i+1:]...)
		}
	}
	return set
}

// resync makes the task part equal to a full snapshot the agent reported.
// Fields the snapshot does not carry (activeForm, description, the creating
// call) are kept from the task with the same id. A task whose id is still
// unknown survives unless the snapshot holds a task of the same title.
func (l *List) resync(items []Item) {
	next := make([]Task, 0, len(items))
	titles := make(map[string]bool, len(items))
	for _, it := range items {
		t := Task{Item: it}
		t.Source = SourceTask
		t.Blocks = append([]string(nil), it.Blocks...)
		t.BlockedBy = append([]string(nil), it.BlockedBy...)
		if old := l.task(it.ID); old != nil {
			t.ToolUseID = old.ToolUseID
			if t.ActiveForm == "" {
				t.ActiveForm = old.ActiveForm
			}
			if t.Description == "" {
				t.Description = old.Description
			}
			if t.Owner == "" {
				t.Owner = old.Owner
			}
		}
		titles[it.Title] = true
		next = append(next, t)
	}
	for _, old := range l.Tasks {
		if old.ID == "" && !titles[old.Title] {
			next = append(next, old)
		}
	}
	l.Tasks = next
	for _, t := range next {
		l.link(t.ID, nil, t.BlockedBy)
	}
}

// merge updates todos by id and appends unknown ids (Hermes merge=true:
// "updates by id, changing only the fields provided"). Items without an id
// are skipped, as Hermes skips them.
func (l *List) merge(items []Item) {
	for _, it := range items {
		if it.ID == "" {
			continue
		}
		found := false
		for i := range l.Todos {
			old := &l.Todos[i]
			if old.ID != it.ID {
				continue
			}
			found = true
			if it.Title != "" {
				old.Title = it.Title
			}
			if it.Status != StatusUnknown || it.RawStatus != "" {
				old.Status, old.RawStatus = it.Status, it.RawStatus
			}
			if it.ActiveForm != "" {
				old.ActiveForm = it.ActiveForm
			}
		}
		if !found {
			if !HasText(&it) {
				l.Blank++
				continue
			}
			it.Source = SourceTodo
			l.Todos = append(l.Todos, it)
		}
	}
}
