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

// TaskCreate is what the TaskCreate tool asks for.
type TaskCreate struct {
	Subject     string
	Description string
	ActiveForm  string
	Metadata    map[string]json.RawMessage
}

// CreateResult is what Create did. Fresh is set when the list was all done:
// it was archived (Generation went up) and the task is #1 of a new round.
type CreateResult struct {
	Task  ListTask
	Fresh bool
}

// Create adds a pending task with the next id. It is allowed in plan mode:
// it is how a plan is drafted.
func (l *TaskList) Create(in TaskCreate, now time.Time) (CreateResult, error) {
	var res CreateResult
	err := l.atomically(func(c *TaskList) error {
		if err := checkText("subject", in.Subject, true); err != nil {
			return err
		}
		if err := checkText("description", in.Description, false); err != nil {
			return err
		}
		if err := checkText("activeForm", in.ActiveForm, false); err != nil {
			return err
		}
		if c.allDone() {
			c.Generation++
			c.Tasks, c.Deleted, c.NextID, c.Explanation = nil, nil, 1, ""
			res.Fresh = true
		}
		if len(c.Tasks) >= MaxListTasks {
			return errorf(CodeInvalid, "TaskCreate", "list %s already holds %d tasks, the most it keeps; complete or delete some first", c.Name, MaxListTasks)
		}
		t := ListTask{Item: Item{
			ID: c.newID(), Title: in.Subject, Description: in.Description, ActiveForm: in.ActiveForm,
			Status: StatusPending, Source: SourceTask,
		}, UpdatedAt: now}
		if _, err := mergeMetadata(&t.Metadata, in.Metadata); err != nil {
			return err
		}
		c.Tasks = append(c.Tasks, t)
		c.touch(now)
		res.Task = t.clone()
		return nil
	})
	return res, err
}

// allDone: the list has tasks and none has work left.
func (l *TaskList) allDone() bool {
	for _, t := range l.Tasks {
		if t.Status.Open() {
			return false
		}
	}
	return len(l.Tasks) > 0
}

// TaskUpdate is what the TaskUpdate tool asks for: nil and empty fields
// change nothing. Status is the word the model sent.
type TaskUpdate struct {
	TaskID       string
	Status       *string
	Subject      *string
	Description  *string
	ActiveForm   *string
	Owner        *string
	AddBlocks    []string
	AddBlockedBy []string
	Metadata     map[string]json.RawMessage
}

// TaskUpdateStatuses are the words TaskUpdate takes for status.
var TaskUpdateStatuses = []string{"pending", "in_progress", "completed", "deleted"}

// StatusChange is a status before and after an update.
type StatusChange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// UpdateResult is what Update did.
type UpdateResult struct {
	UpdatedFields []string
	StatusChange  *StatusChange
	// VerificationNudge: see VerificationNudge.
	VerificationNudge bool
}

// Update edits one task, under every rule of the list.
func (l *TaskList) Update(in TaskUpdate, now time.Time) (UpdateResult, error) {
	var res UpdateResult
	err := l.atomically(func(c *TaskList) error {
		var err error
		res, err = c.update(l, in, now)
		return err
	})
	return res, err
}

func (c *TaskList) update(before *TaskList, in TaskUpdate, now time.Time) (UpdateResult, error) {
	var res UpdateResult
	if in.TaskID == "" {
		return res, errorf(CodeInvalid, "arguments", "taskId is required (the id TaskCreate returned, e.g. \"1\")")
	}
	t := c.find(in.TaskID)
	if t == nil {
		return res, c.notFound(in.TaskID)
	}
	var to Status
	if in.Status != nil {
		word, err := toolStatus("status", *in.Status, TaskUpdateStatuses...)
		if err != nil {
			return res, err
		}
		if word == "deleted" {
			c.remove(t.ID, now)
			c.touch(now)
			res.UpdatedFields = []string{"deleted"}
			res.StatusChange = &StatusChange{From: t.Status.String(), To: "deleted"}
			return res, nil
		}
		to, _ = ParseStatus(word)
		if c.Mode == ModePlan && (to == StatusInProgress || to == StatusCompleted) {
			return res, c.refuseInPlan("setting a task " + word)
		}
	}
	if in.Owner != nil && t.Status == StatusInProgress && t.Owner != "" && *in.Owner != t.Owner {
		return res, errorf(CodeConflict, "claim",
			"task #%s is in progress and owned by %s; %q cannot claim it. Pick a pending task (TaskList), or wait until %s completes it",
			t.ID, t.Owner, *in.Owner, t.Owner)
	}
	field := func(name string, dst *string, v *string) error {
		if v == nil {
			return nil
		}
		if err := checkText(name, *v, name == "subject"); err != nil {
			return err
		}
		if *dst != *v {
			*dst = *v
			res.UpdatedFields = append(res.UpdatedFields, name)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		dst  *string
		v    *string
	}{{"subject", &t.Title, in.Subject}, {"description", &t.Description, in.Description}, {"activeForm", &t.ActiveForm, in.ActiveForm}} {
		if err := field(f.name, f.dst, f.v); err != nil {
			return res, err
		}
	}
	if in.Status != nil && t.Status != to {
		res.StatusChange = &StatusChange{From: t.Status.String(), To: to.String()}
		t.Status, t.RawStatus = to, ""
		res.UpdatedFields = append(res.UpdatedFields, "status")
	}
	if err := field("owner", &t.Owner, in.Owner); err != nil {
		return res, err
	}
	id := t.ID
	for _, b := range in.AddBlocks {
		if err := c.link(b, id, "addBlocks"); err != nil {
			return res, err
		}
	}
	for _, b := range in.AddBlockedBy {
		if err := c.link(id, b, "addBlockedBy"); err != nil {
			return res, err
		}
	}
	t = c.find(id)
	if len(in.AddBlocks) > 0 && !slices.Equal(t.Blocks, before.find(id).Blocks) {
		res.UpdatedFields = append(res.UpdatedFields, "blocks")
	}
	if len(in.AddBlockedBy) > 0 && !slices.Equal(t.BlockedBy, before.find(id).BlockedBy) {
		res.UpdatedFields = append(res.UpdatedFields, "blockedBy")
	}
	changed, err := mergeMetadata(&t.Metadata, in.Metadata)
	if err != nil {
		return res, err
	}
	if changed {
		res.UpdatedFields = append(res.UpdatedFields, "metadata")
	}
	if err := c.checkStart(before); err != nil {
		return res, err
	}
	if len(res.UpdatedFields) > 0 {
		t.UpdatedAt = now
		c.touch(now)
	}
	if res.UpdatedFields == nil {
		res.UpdatedFields = []string{}
	}
	res.VerificationNudge = c.needsNudge(before.Summary().Completed)
	return res, nil
}

// link records "waiter is blocked by blocker" on both tasks. It refuses a
// missing task, a task blocking itself, a cycle (no task of it could ever
// start), and an open blocker for a task already in progress.
func (c *TaskList) link(waiter, blocker, arg string) error {
	w, b := c.find(waiter), c.find(blocker)
	switch {
	case w == nil:
		return errorf(CodeInvalid, "arguments", "%s: %s", arg, c.notFound(waiter).(*Error).Err)
	case b == nil:
		return errorf(CodeInvalid, "arguments", "%s: %s", arg, c.notFound(blocker).(*Error).Err)
	case waiter == blocker:
		return errorf(CodeInvalid, "arguments", "%s: task #%s cannot block itself", arg, waiter)
	case c.waitsOn(blocker, waiter):
		return errorf(CodeInvalid, "arguments", "%s: #%s blocked by #%s would be a cycle (#%s already waits on #%s), and no task of a cycle can ever start",
			arg, waiter, blocker, blocker, waiter)
	case w.Status == StatusInProgress && b.Status.Open():
		return errorf(CodeConflict, "arguments", "%s: task #%s is in progress and cannot wait on open task #%s; set #%s back to pending first, or complete #%s",
			arg, waiter, blocker, waiter, blocker)
	}
	w.BlockedBy = addUnique(w.BlockedBy, blocker)
	b.Blocks = addUnique(b.Blocks, waiter)
	return nil
}

// waitsOn reports whether from is blocked, directly or through other
// tasks, by to.
func (c *TaskList) waitsOn(from, to string) bool {
	seen := map[string]bool{}
	stack := []string{from}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id == to {
			return true
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		if t := c.find(id); t != nil {
			stack = append(stack, t.BlockedBy...)
		}
	}
	return false
}

// SetMode switches a list between plan and execution. Leaving plan mode
// is the approval of the plan.
func (l *TaskList) SetMode(m ListMode, now time.Time) {
	l.Mode = m
	l.touch(now)
}

// Todo is one item of todo_write (TodoWrite, write_todos and the Hermes
// todo tool all fit it). Status is the word the model sent.
type Todo struct {
	ID         string
	Content    string
	Status     string
	ActiveForm string
}

// TodoStatuses are the words todo_write takes (Hermes' set).
var TodoStatuses = []string{"pending", "in_progress", "completed", "cancelled"}

// PlanStatuses are the words update_plan takes (Codex's StepStatus).
var PlanStatuses = []string{"pending", "in_progress", "completed"}

// WriteTodos is todo_write. Without merge the list becomes todos (a todo
// keeps the task of the same id, or else of the same text, with its
// owner, links and metadata; tasks left out are deleted). With merge,
// todos update tasks by id and unknown ids are added (Hermes merge=true).
// It reports whether the verification nudge is due.
func (l *TaskList) WriteTodos(todos []Todo, merge bool, now time.Time) (bool, error) {
	nudge := false
	err := l.atomically(func(c *TaskList) error {
		if c.Mode == ModePlan {
			return c.refuseInPlan("todo_write (a checklist tool)")
		}
		if err := checkTodos(todos, merge); err != nil {
			return err
		}
		if merge {
			if err := c.mergeTodos(todos, now); err != nil {
				return err
			}
		} else {
			c.replace(todos, now)
		}
		if len(c.Tasks) > MaxListTasks {
			return errorf(CodeInvalid, "arguments", "list %s would hold %d tasks; it keeps at most %d", c.Name, len(c.Tasks), MaxListTasks)
		}
		if err := c.checkStart(l); err != nil {
			return err
		}
		c.touch(now)
		nudge = c.needsNudge(l.Summary().Completed)
		return nil
	})
	return nudge, err
}

// PlanStep is one step of update_plan.
type PlanStep struct {
	Step   string
	Status string
}

// UpdatePlan is Codex's update_plan: the list becomes the steps, matched
// to existing tasks by text. Like Codex, it is refused in plan mode: it is
// a checklist tool, not a plan for approval.
func (l *TaskList) UpdatePlan(explanation string, plan []PlanStep, now time.Time) (bool, error) {
	if l.Mode == ModePlan {
		return false, l.refuseInPlan("update_plan (a TODO/checklist tool)")
	}
	todos := make([]Todo, len(plan))
	for i, s := range plan {
		if _, err := toolStatus(fmt.Sprintf("plan[%d].status", i), s.Status, PlanStatuses...); err != nil {
			return false, err
		}
		todos[i] = Todo{Content: s.Step, Status: s.Status}
	}
	if err := checkText("explanation", explanation, false); err != nil {
		return false, err
	}
	before := l.Clone()
	nudge, err := l.WriteTodos(todos, false, now)
	if err == nil {
		l.Explanation = explanation
		if before.Explanation != explanation {
			l.touch(now)
		}
	}
	return nudge, err
}

func checkTodos(todos []Todo, merge bool) error {
	if len(todos) > MaxListTasks {
		return errorf(CodeInvalid, "arguments", "todos has %d items; a list keeps at most %d", len(todos), MaxListTasks)
	}
	seen := make(map[string]int, len(todos))
	for i, td := range todos {
		at := fmt.Sprintf("todos[%d]", i)
		if merge && td.ID == "" {
			return errorf(CodeInvalid, "arguments", "%s has no id: with merge=true every todo needs the id of the task it updates (or a new id to add one)", at)
		}
		if td.ID != "" {
			if j, dup := seen[td.ID]; dup {
				return errorf(CodeInvalid, "arguments", "%s.id %q repeats todos[%d].id; ids must be unique", at, td.ID, j)
			}
			seen[td.ID] = i
		}
		if err := checkText(at+".content", td.Content, !merge); err != nil {
			return err
		}
		if err := checkText(at+".activeForm", td.ActiveForm, false); err != nil {
			return err
		}
		if td.Status != "" || !merge {
			if _, err := toolStatus(at+".status", td.Status, TodoStatuses...); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *TaskList) replace(todos []Todo, now time.Time) {
	kept := make(map[string]bool, len(todos))
	next := make([]ListTask, 0, len(todos))
	for _, td := range todos {
		var t ListTask
		if old := c.match(td, kept); old != nil {
			t = old.clone()
		} else {
			t = ListTask{Item: Item{ID: td.ID, Source: SourceTodo}}
			if t.ID == "" {
				t.ID = c.newID()
			}
		}
		c.reserveID(t.ID)
		kept[t.ID] = true
		st, _ := ParseStatus(td.Status)
		if t.Title != td.Content || t.Status != st || t.ActiveForm != td.ActiveForm {
			t.UpdatedAt = now
		}
		t.Title, t.Status, t.RawStatus, t.ActiveForm = td.Content, st, "", td.ActiveForm
		next = append(next, t)
	}
	for _, t := range slices.Clone(c.Tasks) {
		if !kept[t.ID] {
			c.remove(t.ID, now)
		}
	}
	for i := range next {
		drop := func(id string) bool { return !kept[id] }
		next[i].Blocks = slices.DeleteFunc(next[i].Blocks, drop)
		next[i].BlockedBy = slices.DeleteFunc(next[i].BlockedBy, drop)
	}
	c.Tasks = next
}

// match finds the live task a replacing todo stands for: by id, else the
// first not yet taken with the same text.
func (c *TaskList) match(td Todo, taken map[string]bool) *ListTask {
	if td.ID != "" {
		return c.find(td.ID)
	}
	for i := range c.Tasks {
		if t := &c.Tasks[i]; !taken[t.ID] && t.Title == td.Content {
			return t
		}
	}
	return nil
}

func (c *TaskList) mergeTodos(todos []Todo, now time.Time) error {
	for i, td := range todos {
		t := c.find(td.ID)
		if t == nil {
			if strings.TrimSpace(td.Content) == "" {
				return errorf(CodeInvalid, "arguments", "todos[%d] adds task %q, which needs a content", i, td.ID)
			}
			st := StatusPending
			if td.Status != "" {
				st, _ = ParseStatus(td.Status)
			}
			c.Tasks = append(c.Tasks, ListTask{Item: Item{ID: td.ID, Title: td.Content, ActiveForm: td.ActiveForm, Status: st, Source: SourceTodo}, UpdatedAt: now})
			c.reserveID(td.ID)
			continue
		}
		if td.Content != "" {
			t.Title = td.Content
		}
		if td.Status != "" {
			t.Status, _ = ParseStatus(td.Status)
		}
		if td.ActiveForm != "" {
			t.ActiveForm = td.ActiveForm
		}
		t.UpdatedAt = now
	}
	return nil
}
