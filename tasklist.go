package tally

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A TaskList is a task list Tally keeps itself, for agents that call its
// task tools (tally mcp) instead of keeping a list in their own log. Its
// methods are the rules of those tools, pure and deterministic: a method
// that returns an error leaves the list exactly as it was, so a tool call
// either happens whole or not at all.
//
// The rules, from seeds 03 and 05:
//   - at most one task of a list is in_progress;
//   - a task with open blockers cannot start; blocks and blockedBy are kept
//     both ways, and "blocked" is derived, so completing a blocker unblocks
//     its dependants with no further call;
//   - deleting a task hides it and keeps it in Deleted;
//   - a list in plan mode refuses execution (starting or completing work,
//     the checklist tools) until it is approved;
//   - when every task is done, the next TaskCreate starts a fresh list from
//     id 1 (Generation goes up; the store archives the finished one).
type TaskList struct {
	Name string   `json:"name"`
	Mode ListMode `json:"mode"`
	// Generation counts the fresh starts of the list.
	Generation int `json:"generation"`
	// NextID is the number the next new task gets; 0 means 1.
	NextID      int       `json:"nextId,omitempty"`
	Project     string    `json:"project,omitempty"`
	Explanation string    `json:"explanation,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	// Tasks are the live tasks in creation order.
	Tasks []ListTask `json:"tasks"`
	// Deleted keeps the tasks deleted or dropped from this generation.
	Deleted []ListTask `json:"deleted,omitempty"`
}

// ListTask is one task of a TaskList.
type ListTask struct {
	Item
	Metadata  map[string]json.RawMessage `json:"metadata,omitempty"`
	UpdatedAt time.Time                  `json:"updatedAt"`
}

// ListMode is whether a list is a plan waiting for approval or work under
// way (seed 05: "Plans are for user approval. Todos are for current
// execution focus").
type ListMode uint8

const (
	// ModeExecution is the zero value: a list is worked on unless someone
	// asked for a plan first.
	ModeExecution ListMode = iota
	ModePlan
)

func (m ListMode) String() string {
	if m == ModePlan {
		return "plan"
	}
	return "execution"
}

func (m ListMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

func (m *ListMode) UnmarshalText(b []byte) error {
	switch string(b) {
	case "plan":
		*m = ModePlan
	case "execution":
		*m = ModeExecution
	default:
		return errorf(CodeInvalid, "ListMode.UnmarshalText", "unknown list mode %q (want plan or execution)", b)
	}
	return nil
}

// Limits that keep one list, stored as one JSON value, small.
const (
	MaxListTasks    = 1000
	MaxTaskText     = 4000
	MaxMetadataSize = 16 << 10
	MaxListName     = 64
)

// CheckListName accepts names of letters, digits and ". _ - :", which keep
// a list's session id (tally:NAME) readable on a command line.
func CheckListName(name string) error {
	if name == "" || len(name) > MaxListName {
		return errorf(CodeInvalid, "list", "list name %q must be 1 to %d characters", name, MaxListName)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-:", r)
		if !ok {
			return errorf(CodeInvalid, "list", "list name %q: use letters, digits and . _ - : only", name)
		}
	}
	return nil
}

// TaskListSessionPrefix starts the session id of every TaskList's Record.
const TaskListSessionPrefix = "tally:"

// Record is the list as a session of agent "tally": what watch, sessions
// and the dashboard show. A plan waiting for approval needs input; a list
// whose tasks are all done has ended.
func (l *TaskList) Record() Record {
	items := make([]Item, len(l.Tasks))
	open := false
	for i, t := range l.Tasks {
		items[i] = t.Item
		items[i].Blocks = slices.Clone(t.Blocks)
		items[i].BlockedBy = slices.Clone(t.BlockedBy)
		open = open || t.Status.Open()
	}
	sig := SignalWorking
	switch {
	case l.Mode == ModePlan:
		sig = SignalWaiting
	case len(items) > 0 && !open:
		sig = SignalEnded
	}
	title := "tasks " + l.Name
	if l.Mode == ModePlan {
		title += " (plan, waiting for approval)"
	}
	return Record{
		ID: TaskListSessionPrefix + l.Name, Agent: AgentTally, Project: l.Project, Title: title,
		StartedAt: l.CreatedAt, LastActivity: l.UpdatedAt, Signal: sig,
		Lists: map[string][]Item{"": items},
	}
}

// View is the live tasks with "blocked" derived.
func (l *TaskList) View() []ItemView {
	items := make([]Item, len(l.Tasks))
	for i := range l.Tasks {
		items[i] = l.Tasks[i].Item
	}
	return View(items)
}

// Task returns the live task id.
func (l *TaskList) Task(id string) (ListTask, error) {
	if t := l.find(id); t != nil {
		return t.clone(), nil
	}
	return ListTask{}, l.notFound(id)
}

func (l *TaskList) find(id string) *ListTask {
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			return &l.Tasks[i]
		}
	}
	return nil
}

func (l *TaskList) notFound(id string) error {
	ids := make([]string, 0, len(l.Tasks))
	for _, t := range l.Tasks {
		ids = append(ids, t.ID)
	}
	live := "it has no live tasks"
	if len(ids) > 0 {
		live = "its live tasks are " + strings.Join(ids, ", ")
	}
	for _, t := range l.Deleted {
		if t.ID == id {
			return errorf(CodeNotFound, "task", "task #%s of list %s was deleted; %s", id, l.Name, live)
		}
	}
	return errorf(CodeNotFound, "task", "no task #%s in list %s; %s (TaskList shows them)", id, l.Name, live)
}

// touch records a change at now, starting the list if it is new.
func (l *TaskList) touch(now time.Time) {
	if l.CreatedAt.IsZero() {
		l.CreatedAt = now
	}
	if now.After(l.UpdatedAt) {
		l.UpdatedAt = now
	}
}

// Clone is a deep copy.
func (l *TaskList) Clone() TaskList {
	c := *l
	c.Tasks = cloneTasks(l.Tasks)
	c.Deleted = cloneTasks(l.Deleted)
	return c
}

func cloneTasks(ts []ListTask) []ListTask {
	if ts == nil {
		return nil
	}
	out := make([]ListTask, len(ts))
	for i := range ts {
		out[i] = ts[i].clone()
	}
	return out
}

func (t *ListTask) clone() ListTask {
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
func (l *TaskList) atomically(f func(c *TaskList) error) error {
	c := l.Clone()
	if err := f(&c); err != nil {
		return err
	}
	*l = c
	return nil
}

func (l *TaskList) newID() string {
	if l.NextID < 1 {
		l.NextID = 1
	}
	id := strconv.Itoa(l.NextID)
	l.NextID++
	return id
}

// reserveID keeps NextID past an id an agent chose itself, so later
// TaskCreate ids never collide with it.
func (l *TaskList) reserveID(id string) {
	if n, err := strconv.Atoi(id); err == nil && n >= l.NextID {
		l.NextID = n + 1
	}
}

func (l *TaskList) inProgress() *ListTask {
	for i := range l.Tasks {
		if l.Tasks[i].Status == StatusInProgress {
			return &l.Tasks[i]
		}
	}
	return nil
}

// openBlockers lists the blockers of t that still have work left.
func (l *TaskList) openBlockers(t *ListTask) []string {
	var out []string
	for _, b := range t.BlockedBy {
		if o := l.find(b); o != nil && o.Status.Open() {
			out = append(out, fmt.Sprintf("#%s (%s, %s)", o.ID, o.Title, o.Status))
		}
	}
	return out
}

// remove moves task id to Deleted and drops it from every other task's
// links, as Claude Code does with a deleted task's id.
func (l *TaskList) remove(id string, now time.Time) {
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

// TaskSummary counts a list's live tasks by status (the Hermes todo
// summary).
type TaskSummary struct {
	Total      int `json:"total"`
	Pending    int `json:"pending"`
	InProgress int `json:"in_progress"`
	Completed  int `json:"completed"`
	Cancelled  int `json:"cancelled"`
}

// Summary counts the live tasks.
func (l *TaskList) Summary() TaskSummary {
	var s TaskSummary
	for _, t := range l.Tasks {
		s.Total++
		switch t.Status {
		case StatusPending:
			s.Pending++
		case StatusInProgress:
			s.InProgress++
		case StatusCompleted:
			s.Completed++
		case StatusCancelled:
			s.Cancelled++
		case StatusUnknown, StatusFailed, StatusBlocked:
		}
	}
	return s
}

// VerificationNudge is what a tool answer tells the model when it has
// closed three or more tasks and none of them checks the work (seed 05:
// "Add verification nudges before closing many tasks").
const VerificationNudge = "You have completed 3 or more tasks and none of them verifies the work. " +
	"Before you finish, add a task to verify it (run the tests, the linter or a smoke check) and do it."

// verifyWords mark a task that verifies work, matched in lower case
// anywhere in its subject or description.
var verifyWords = []string{"verif", "test", "check", "lint", "validat", "smoke"}

func (t *ListTask) verifies() bool {
	text := strings.ToLower(t.Title + " " + t.Description)
	for _, w := range verifyWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// needsNudge: this change completed a task, three or more are completed,
// and none of the live tasks verifies anything.
func (l *TaskList) needsNudge(completedBefore int) bool {
	done := l.Summary().Completed
	if done <= completedBefore || done < 3 {
		return false
	}
	for i := range l.Tasks {
		if l.Tasks[i].verifies() {
			return false
		}
	}
	return true
}

// refuseInPlan is the answer to an execution tool in plan mode.
func (l *TaskList) refuseInPlan(what string) error {
	return errorf(CodeConflict, "plan mode",
		"list %s is in plan mode: %s is execution, not allowed until the plan is approved. "+
			"Draft the plan with TaskCreate (tasks stay pending), then ask the user to approve it "+
			"(`tally tasks approve %s`, or the dashboard)", l.Name, what, l.Name)
}

// toolStatus parses a status word a tool takes, accepting only the
// canonical words of allowed: a model that sends another word is told the
// valid ones rather than guessed at.
func toolStatus(field, word string, allowed ...string) (string, error) {
	if slices.Contains(allowed, word) {
		return word, nil
	}
	return "", errorf(CodeInvalid, "arguments", "%s %q is not a valid status; use one of %s", field, word, strings.Join(allowed, ", "))
}

func checkText(field, s string, required bool) error {
	if required && strings.TrimSpace(s) == "" {
		return errorf(CodeInvalid, "arguments", "%s is required and must not be empty", field)
	}
	if len(s) > MaxTaskText {
		return errorf(CodeInvalid, "arguments", "%s is %d bytes; at most %d are kept", field, len(s), MaxTaskText)
	}
	return nil
}

// mergeMetadata merges patch into m: a null value deletes the key (the
// Claude TaskUpdate rule). It reports whether m changed.
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
	if js, _ := json.Marshal(*m); len(js) > MaxMetadataSize {
		return false, errorf(CodeInvalid, "arguments", "metadata would be %d bytes; at most %d are kept", len(js), MaxMetadataSize)
	}
	return changed, nil
}

// checkStart enforces the starting rules on c, a changed copy of before:
// at most one task in progress, and a task that starts has no open
// blockers.
func (c *TaskList) checkStart(before *TaskList) error {
	var started, current *ListTask
	n := 0
	for i := range c.Tasks {
		t := &c.Tasks[i]
		if t.Status != StatusInProgress {
			continue
		}
		n++
		if b := before.find(t.ID); b != nil && b.Status == StatusInProgress {
			current = t
		} else if started == nil {
			started = t
		}
	}
	if started == nil {
		return nil
	}
	if open := c.openBlockers(started); len(open) > 0 {
		return errorf(CodeConflict, "start",
			"task #%s cannot start: it is blocked by %s. Complete the blocker first, or start another task",
			started.ID, strings.Join(open, ", "))
	}
	if n == 1 {
		return nil
	}
	if current != nil {
		return errorf(CodeConflict, "start",
			"task #%s (%s) is already in progress and only one task per list may be: complete it "+
				"(TaskUpdate {\"taskId\":%q,\"status\":\"completed\"}) or set it back to pending, then start #%s",
			current.ID, current.Title, current.ID, started.ID)
	}
	return errorf(CodeConflict, "start",
		"%d tasks would be in progress at once and only one per list may be: mark one in_progress, the others pending", n)
}
