package tasks

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/tallyhq/tally"
)

// CreateArgs describe a new task.
type CreateArgs struct {
	Subject     string
	Description string
	ActiveForm  string
	Metadata    map[string]json.RawMessage
}

// CreateResult is what Create did. Fresh is set when the list was all done:
// it was archived (Generation went up) and the task is #1 of a new round.
type CreateResult struct {
	Task  Task
	Fresh bool
}

// Create adds a pending task with the next id. It is allowed in plan mode:
// it is how a plan is drafted.
func (l *List) Create(in CreateArgs, now time.Time) (CreateResult, error) {
	var res CreateResult
	err := l.atomically(func(c *List) error {
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
		if len(c.Tasks) >= MaxTasks {
			return tally.Errorf(tally.CodeInvalid, "create", "list %s already holds %d tasks, the most it keeps; complete or delete some first", c.Name, MaxTasks)
		}
		t := Task{Item: tally.Item{
			ID: c.newID(), Title: in.Subject, Description: in.Description, ActiveForm: in.ActiveForm,
			Status: tally.StatusPending, Source: tally.SourceTask,
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
func (l *List) allDone() bool {
	for _, t := range l.Tasks {
		if t.Status.Open() {
			return false
		}
	}
	return len(l.Tasks) > 0
}

// UpdateArgs describe a change to task ID: nil and empty fields change
// nothing.
type UpdateArgs struct {
	ID           string
	Status       *tally.Status
	Subject      *string
	Description  *string
	ActiveForm   *string
	Owner        *string
	AddBlocks    []string
	AddBlockedBy []string
	Metadata     map[string]json.RawMessage
}

// StatusChange is a task's status before and after a change.
type StatusChange struct {
	From, To tally.Status
}

// UpdateResult is what Update did.
type UpdateResult struct {
	// Changed names the fields that changed, in the order of UpdateArgs:
	// subject, description, activeForm, status, owner, blocks, blockedBy,
	// metadata. None is nil.
	Changed []string
	// StatusChange is nil when the status stayed.
	StatusChange *StatusChange
	// VerificationDue: the change completed a third task or more and no
	// task of the list verifies the work.
	VerificationDue bool
}

// Update edits one task, under every rule of the list.
func (l *List) Update(in UpdateArgs, now time.Time) (UpdateResult, error) {
	var res UpdateResult
	err := l.atomically(func(c *List) error {
		var err error
		res, err = c.update(l, in, now)
		return err
	})
	return res, err
}

func (c *List) update(before *List, in UpdateArgs, now time.Time) (UpdateResult, error) {
	var res UpdateResult
	t := c.find(in.ID)
	if t == nil {
		return res, c.notFound(in.ID)
	}
	if in.Status != nil {
		if err := listStatus("status", *in.Status, false); err != nil {
			return res, err
		}
		if to := *in.Status; c.Mode == ModePlan && (to == tally.StatusInProgress || to == tally.StatusCompleted) {
			return res, c.refuseInPlan(to)
		}
	}
	if in.Owner != nil && t.Status == tally.StatusInProgress && t.Owner != "" && *in.Owner != t.Owner {
		return res, &tally.Error{Code: tally.CodeConflict, Op: "claim", Err: &ClaimError{Task: t.ID, Owner: t.Owner, Claimant: *in.Owner}}
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
			res.Changed = append(res.Changed, name)
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
	if in.Status != nil && t.Status != *in.Status {
		res.StatusChange = &StatusChange{From: t.Status, To: *in.Status}
		t.Status, t.RawStatus = *in.Status, ""
		res.Changed = append(res.Changed, "status")
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
		res.Changed = append(res.Changed, "blocks")
	}
	if len(in.AddBlockedBy) > 0 && !slices.Equal(t.BlockedBy, before.find(id).BlockedBy) {
		res.Changed = append(res.Changed, "blockedBy")
	}
	changed, err := mergeMetadata(&t.Metadata, in.Metadata)
	if err != nil {
		return res, err
	}
	if changed {
		res.Changed = append(res.Changed, "metadata")
	}
	if err := c.checkStart(before); err != nil {
		return res, err
	}
	if len(res.Changed) > 0 {
		t.UpdatedAt = now
		c.touch(now)
	}
	res.VerificationDue = c.verificationDue(before.Summary().Completed)
	return res, nil
}

// Delete removes the live task id (it is kept in Deleted) and drops it
// from every other task's links. It is allowed in plan mode: dropping a
// step is drafting the plan. It returns the status the task had.
func (l *List) Delete(id string, now time.Time) (tally.Status, error) {
	t := l.find(id)
	if t == nil {
		return tally.StatusUnknown, l.notFound(id)
	}
	was := t.Status
	l.remove(id, now)
	l.touch(now)
	return was, nil
}

// link records "waiter is blocked by blocker" on both tasks. It refuses a
// missing task, a task blocking itself, a cycle (no task of it could ever
// start), and an open blocker for a task already in progress.
func (c *List) link(waiter, blocker, arg string) error {
	w, b := c.find(waiter), c.find(blocker)
	switch {
	case w == nil:
		return tally.Errorf(tally.CodeInvalid, "arguments", "%s: %w", arg, c.notFound(waiter).(*tally.Error).Err)
	case b == nil:
		return tally.Errorf(tally.CodeInvalid, "arguments", "%s: %w", arg, c.notFound(blocker).(*tally.Error).Err)
	case waiter == blocker:
		return tally.Errorf(tally.CodeInvalid, "arguments", "%s: task #%s cannot block itself", arg, waiter)
	case c.waitsOn(blocker, waiter):
		return tally.Errorf(tally.CodeInvalid, "arguments", "%s: #%s blocked by #%s would be a cycle (#%s already waits on #%s), and no task of a cycle can ever start",
			arg, waiter, blocker, blocker, waiter)
	case w.Status == tally.StatusInProgress && b.Status.Open():
		return tally.Errorf(tally.CodeConflict, "arguments", "%s: task #%s is in progress and cannot wait on open task #%s; set #%s back to pending first, or complete #%s",
			arg, waiter, blocker, waiter, blocker)
	}
	if !slices.Contains(w.BlockedBy, blocker) {
		w.BlockedBy = append(w.BlockedBy, blocker)
	}
	if !slices.Contains(b.Blocks, waiter) {
		b.Blocks = append(b.Blocks, waiter)
	}
	return nil
}

// waitsOn reports whether from is blocked, directly or through other
// tasks, by to.
func (c *List) waitsOn(from, to string) bool {
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
func (l *List) SetMode(m Mode, now time.Time) {
	l.Mode = m
	l.touch(now)
}
