package tasks

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
)

// A List is a task list Tally keeps itself. Its methods are the rules of
// the task tools, pure and deterministic: a method that returns an error
// leaves the list exactly as it was, so a call either happens whole or not
// at all.
//
// The rules:
//   - at most one task of a list is in_progress;
//   - a task with open blockers cannot start; blocks and blockedBy are kept
//     both ways, and "blocked" is derived, so completing a blocker unblocks
//     its dependants with no further call;
//   - deleting a task hides it and keeps it in Deleted;
//   - a list in plan mode refuses execution (starting or completing work,
//     writing the checklist) until it is approved;
//   - when every task is done, the next Create starts a fresh list from
//     id 1 (Generation goes up; the store archives the finished one).
type List struct {
	Name string `json:"name"`
	Mode Mode   `json:"mode"`
	// Generation counts the fresh starts of the list.
	Generation int `json:"generation"`
	// NextID is the number the next new task gets; 0 means 1.
	NextID      int       `json:"nextId,omitempty"`
	Project     string    `json:"project,omitempty"`
	Explanation string    `json:"explanation,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	// Tasks are the live tasks in creation order.
	Tasks []Task `json:"tasks"`
	// Deleted keeps the tasks deleted or dropped from this generation.
	Deleted []Task `json:"deleted,omitempty"`
}

// Task is one task of a List.
type Task struct {
	tally.Item
	Metadata  map[string]json.RawMessage `json:"metadata,omitempty"`
	UpdatedAt time.Time                  `json:"updatedAt"`
}

// Mode is whether a list is a plan waiting for approval or work under way:
// a plan is for the user to approve, a checklist is for the work at hand.
type Mode uint8

const (
	// ModeExecution is the zero value: a list is worked on unless someone
	// asked for a plan first.
	ModeExecution Mode = iota
	ModePlan
)

func (m Mode) String() string {
	if m == ModePlan {
		return "plan"
	}
	return "execution"
}

func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

func (m *Mode) UnmarshalText(b []byte) error {
	switch string(b) {
	case "plan":
		*m = ModePlan
	case "execution":
		*m = ModeExecution
	default:
		return tally.Errorf(tally.CodeInvalid, "tasks.Mode", "unknown list mode %q (want plan or execution)", b)
	}
	return nil
}

// Limits that keep one list, and what one call may write, bounded.
const (
	MaxTasks    = 1000
	MaxText     = 4000
	MaxMetadata = 16 << 10
	MaxName     = 64
)

// CheckName accepts names of letters, digits and ". _ - :", which keep a
// list's session id (tally:NAME) readable on a command line. A refusal
// quotes at most the start of a long name, as texts are never echoed.
func CheckName(name string) error {
	switch {
	case name == "":
		return tally.Errorf(tally.CodeInvalid, "list", "a list name must not be empty: use 1 to %d letters, digits and . _ - :", MaxName)
	case len(name) > MaxName:
		start := name[:MaxName/2]
		for !utf8.ValidString(start) {
			start = start[:len(start)-1]
		}
		return tally.Errorf(tally.CodeInvalid, "list", "list name %q… is %d bytes; a name is at most %d: use a short one of letters, digits and . _ - : such as \"backend-tasks\"",
			start, len(name), MaxName)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-:", r)
		if !ok {
			return tally.Errorf(tally.CodeInvalid, "list", "list name %q: use letters, digits and . _ - : only", name)
		}
	}
	return nil
}

// SessionPrefix starts the session id of every List's Record.
const SessionPrefix = tally.TallyListPrefix

// Record is the list as a session of agent "tally": what watch, sessions
// and the dashboard show. A plan with tasks waits for the person's
// approval: it asks for them (SignalAsking), so it needs input, is in the
// board's Needs-you strip and is notified; an empty one (plan mode asked for before an agent wrote
// anything) waits for the agent, not the person, and says so in its
// title. A list whose tasks are all done has ended.
func (l *List) Record() tally.Record {
	items := make([]tally.Item, len(l.Tasks))
	open := false
	for i, t := range l.Tasks {
		items[i] = t.Item
		items[i].Blocks = slices.Clone(t.Blocks)
		items[i].BlockedBy = slices.Clone(t.BlockedBy)
		open = open || t.Status.Open()
	}
	sig := tally.SignalWorking
	title := "tasks " + l.Name
	switch {
	case l.Mode == ModePlan && len(items) == 0:
		sig = tally.SignalNone
		title += " (plan mode, no tasks yet)"
	case l.Mode == ModePlan:
		sig = tally.SignalAsking
		title += " (plan, waiting for approval)"
	case len(items) > 0 && !open:
		sig = tally.SignalEnded
	}
	return tally.Record{
		ID: SessionPrefix + l.Name, Agent: tally.AgentTally, Project: l.Project, Title: title,
		StartedAt: l.CreatedAt, LastActivity: l.UpdatedAt, Signal: sig,
		Lists:    map[string][]tally.Item{"": items},
		TaskList: &tally.OwnList{Name: l.Name, AwaitingApproval: l.Mode == ModePlan},
	}
}

// Items is the live tasks with "blocked" derived.
func (l *List) Items() []tally.ItemView {
	items := make([]tally.Item, len(l.Tasks))
	for i := range l.Tasks {
		items[i] = l.Tasks[i].Item
	}
	return tally.DeriveBlocked(items)
}

// Task returns the live task id; a missing one is a *NotFoundError.
func (l *List) Task(id string) (Task, error) {
	if t := l.find(id); t != nil {
		return t.clone(), nil
	}
	return Task{}, l.notFound(id)
}

func (l *List) find(id string) *Task {
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			return &l.Tasks[i]
		}
	}
	return nil
}

func (l *List) notFound(id string) error {
	e := &NotFoundError{List: l.Name, ID: id, Live: make([]string, 0, len(l.Tasks))}
	for _, t := range l.Tasks {
		e.Live = append(e.Live, t.ID)
	}
	for _, t := range l.Deleted {
		e.Deleted = e.Deleted || t.ID == id
	}
	return &tally.Error{Code: tally.CodeNotFound, Op: "task", Err: e}
}

// touch records a change at now, starting the list if it is new.
func (l *List) touch(now time.Time) {
	if l.CreatedAt.IsZero() {
		l.CreatedAt = now
	}
	if now.After(l.UpdatedAt) {
		l.UpdatedAt = now
	}
}

// Clone is a deep copy.
func (l *List) Clone() List {
	c := *l
	c.Tasks = cloneTasks(l.Tasks)
	c.Deleted = cloneTasks(l.Deleted)
	return c
}

func cloneTasks(ts []Task) []Task {
	if ts == nil {
		return nil
	}
	out := make([]Task, len(ts))
	for i := range ts {
		out[i] = ts[i].clone()
	}
	return out
}

func (t *Task) clone() Task {
	c := *t
	c.Blocks = slices.Clone(t.Blocks)
	c.BlockedBy = slices.Clone(t.BlockedBy)
	if t.Metadata != nil {
		c.Metadata = make(map[string]json.RawMessage, len(t.Metadata))
		for k, v := range t.Metadata {
			c.Metadata[k] = slices.Clone(v)
		}
	}
	return c
}

// atomically runs f on a copy and keeps the copy only if f succeeds.
func (l *List) atomically(f func(c *List) error) error {
	c := l.Clone()
	if err := f(&c); err != nil {
		return err
	}
	*l = c
	return nil
}

func (l *List) newID() string {
	if l.NextID < 1 {
		l.NextID = 1
	}
	id := strconv.Itoa(l.NextID)
	l.NextID++
	return id
}

// reserveID keeps NextID past an id a caller chose itself, so later
// Create ids never collide with it.
func (l *List) reserveID(id string) {
	if n, err := strconv.Atoi(id); err == nil && n >= l.NextID {
		l.NextID = n + 1
	}
}

// openBlockers lists the blockers of t that still have work left.
func (l *List) openBlockers(t *Task) []tally.Item {
	var out []tally.Item
	for _, b := range t.BlockedBy {
		if o := l.find(b); o != nil && o.Status.Open() {
			out = append(out, o.Item)
		}
	}
	return out
}

// remove moves task id to Deleted and drops it from every other task's
// links, as Claude Code does with a deleted task's id.
func (l *List) remove(id string, now time.Time) {
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			t := l.Tasks[i]
			t.UpdatedAt = now
			l.Deleted = append(l.Deleted, t)
			l.Tasks = slices.Delete(l.Tasks, i, i+1)
			break
		}
	}
	for i := range l.Tasks {
		l.Tasks[i].Blocks = slices.DeleteFunc(l.Tasks[i].Blocks, func(s string) bool { return s == id })
		l.Tasks[i].BlockedBy = slices.DeleteFunc(l.Tasks[i].BlockedBy, func(s string) bool { return s == id })
	}
}

// Summary counts a list's live tasks by status.
type Summary struct {
	Total, Pending, InProgress, Completed, Cancelled int
}

// Summary counts the live tasks.
func (l *List) Summary() Summary {
	var s Summary
	for _, t := range l.Tasks {
		s.Total++
		switch t.Status {
		case tally.StatusPending:
			s.Pending++
		case tally.StatusInProgress:
			s.InProgress++
		case tally.StatusCompleted:
			s.Completed++
		case tally.StatusCancelled:
			s.Cancelled++
		case tally.StatusUnknown, tally.StatusFailed, tally.StatusBlocked:
		}
	}
	return s
}

// verificationDue: this change completed a task, and the list meets
// tally.VerificationDue (three or more completed, none verifying the work).
// Closing many tasks with nothing that checks the work is when an agent is
// most likely to stop before running the tests, so the caller is told to
// say so.
func (l *List) verificationDue(completedBefore int) bool {
	items := make([]tally.Item, len(l.Tasks))
	for i := range l.Tasks {
		items[i] = l.Tasks[i].Item
	}
	return tally.VerificationDue(items, completedBefore)
}

// refuseInPlan is the answer to a call that would execute a plan not yet
// approved; status is the status it asked a task to take, if any.
func (l *List) refuseInPlan(status tally.Status) error {
	return &tally.Error{Code: tally.CodeConflict, Op: "plan mode", Err: &PlanModeError{List: l.Name, Status: status}}
}

// listStatus refuses a status a task list does not hold: its tasks are
// pending, in_progress, completed or cancelled. Unknown passes only when
// it means "unchanged" (unset is true).
func listStatus(field string, s tally.Status, unset bool) error {
	switch s {
	case tally.StatusPending, tally.StatusInProgress, tally.StatusCompleted, tally.StatusCancelled:
		return nil
	case tally.StatusUnknown:
		if unset {
			return nil
		}
	case tally.StatusFailed, tally.StatusBlocked:
	}
	return tally.Errorf(tally.CodeInvalid, "arguments", "%s %s is not a status of a task list (pending, in_progress, completed, cancelled)", field, s)
}

func checkText(field, s string, required bool) error {
	if required && strings.TrimSpace(s) == "" {
		return tally.Errorf(tally.CodeInvalid, "arguments", "%s is required and must not be empty", field)
	}
	if len(s) > MaxText {
		return tally.Errorf(tally.CodeInvalid, "arguments", "%s is %d bytes; at most %d are kept", field, len(s), MaxText)
	}
	return nil
}

// mergeMetadata merges patch into m: a null value deletes the key, as
// Claude Code's TaskUpdate does. It reports whether m changed.
func mergeMetadata(m *map[string]json.RawMessage, patch map[string]json.RawMessage) (bool, error) {
	changed := false
	for k, v := range patch {
		if strings.TrimSpace(string(v)) == "null" {
			if _, ok := (*m)[k]; ok {
				delete(*m, k)
				changed = true
			}
			continue
		}
		if *m == nil {
			*m = make(map[string]json.RawMessage)
		}
		if string((*m)[k]) != string(v) {
			(*m)[k] = slices.Clone(v)
			changed = true
		}
	}
	if len(*m) == 0 {
		*m = nil
	}
	if js, _ := json.Marshal(*m); len(js) > MaxMetadata {
		return false, tally.Errorf(tally.CodeInvalid, "arguments", "metadata would be %d bytes; at most %d are kept", len(js), MaxMetadata)
	}
	return changed, nil
}

// checkStart enforces the starting rules on c, a changed copy of before:
// at most one task in progress, and a task that starts has no open
// blockers.
func (c *List) checkStart(before *List) error {
	var started, current *Task
	n := 0
	for i := range c.Tasks {
		t := &c.Tasks[i]
		if t.Status != tally.StatusInProgress {
			continue
		}
		n++
		if b := before.find(t.ID); b != nil && b.Status == tally.StatusInProgress {
			current = t
		} else if started == nil {
			started = t
		}
	}
	if started == nil {
		return nil
	}
	if open := c.openBlockers(started); len(open) > 0 {
		return &tally.Error{Code: tally.CodeConflict, Op: "start", Err: &BlockedError{Task: started.ID, Blockers: open}}
	}
	if n == 1 {
		return nil
	}
	e := &BusyError{Start: started.ID, Count: n}
	if current != nil {
		cur := current.Item
		e.Current = &cur
	}
	return &tally.Error{Code: tally.CodeConflict, Op: "start", Err: e}
}
