package tally

import (
	"encoding/json"
	"slices"
	"time"
)

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
			// Read the status first: remove shifts the task that
			// follows into t's place.
			from := t.Status
			c.remove(t.ID, now)
			c.touch(now)
			res.UpdatedFields = []string{"deleted"}
			res.StatusChange = &StatusChange{From: from.String(), To: "deleted"}
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
