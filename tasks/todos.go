package tasks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tallyhq/tally"
)

// Todo is one item of a whole checklist written at once (TodoWrite,
// write_todos and the Hermes todo tool all fit it). With merge, a zero
// Status and empty texts leave the task's own.
type Todo struct {
	ID         string
	Content    string
	Status     tally.Status
	ActiveForm string
}

// WriteTodos writes the checklist. Without merge the list becomes todos (a
// todo keeps the task of the same id, or else of the same text, with its
// owner, links and metadata; tasks left out are deleted). With merge,
// todos update tasks by id and unknown ids are added, as Hermes' merge
// does. It reports whether verification is due (see
// UpdateResult.VerificationDue).
func (l *List) WriteTodos(todos []Todo, merge bool, now time.Time) (verificationDue bool, err error) {
	err = l.atomically(func(c *List) error {
		if c.Mode == ModePlan {
			return c.refuseInPlan(tally.StatusUnknown)
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
		if len(c.Tasks) > MaxTasks {
			return tally.Errorf(tally.CodeInvalid, "arguments", "list %s would hold %d tasks; it keeps at most %d", c.Name, len(c.Tasks), MaxTasks)
		}
		if err := c.checkStart(l); err != nil {
			return err
		}
		c.touch(now)
		verificationDue = c.verificationDue(l.Summary().Completed)
		return nil
	})
	return verificationDue, err
}

// PlanStep is one step of a plan written whole, as Codex's update_plan
// writes it.
type PlanStep struct {
	Step   string
	Status tally.Status
}

// UpdatePlan makes the list the steps, matched to existing tasks by text,
// and keeps the explanation. Like Codex's update_plan, it is refused in
// plan mode: it writes the checklist of the work, not a plan for approval.
func (l *List) UpdatePlan(explanation string, plan []PlanStep, now time.Time) (verificationDue bool, err error) {
	if l.Mode == ModePlan {
		return false, l.refuseInPlan(tally.StatusUnknown)
	}
	if err := checkPlan(explanation, plan); err != nil {
		return false, err
	}
	todos := make([]Todo, len(plan))
	for i, s := range plan {
		todos[i] = Todo{Content: s.Step, Status: s.Status}
	}
	before := l.Clone()
	verificationDue, err = l.WriteTodos(todos, false, now)
	if err == nil {
		l.Explanation = explanation
		if before.Explanation != explanation {
			l.touch(now)
		}
	}
	return verificationDue, err
}

// checkPlan checks a plan in its own words (plan, step), before it is
// written as the checklist it becomes.
func checkPlan(explanation string, plan []PlanStep) error {
	if len(plan) > MaxTasks {
		return tally.Errorf(tally.CodeInvalid, "arguments", "plan has %d steps; a list keeps at most %d", len(plan), MaxTasks)
	}
	for i, s := range plan {
		at := fmt.Sprintf("plan[%d]", i)
		if err := checkText(at+".step", s.Step, true); err != nil {
			return err
		}
		if err := listStatus(at+".status", s.Status, false); err != nil {
			return err
		}
	}
	return checkText("explanation", explanation, false)
}

func checkTodos(todos []Todo, merge bool) error {
	if len(todos) > MaxTasks {
		return tally.Errorf(tally.CodeInvalid, "arguments", "todos has %d items; a list keeps at most %d", len(todos), MaxTasks)
	}
	seen := make(map[string]int, len(todos))
	for i, td := range todos {
		at := fmt.Sprintf("todos[%d]", i)
		if merge && td.ID == "" {
			return tally.Errorf(tally.CodeInvalid, "arguments", "%s has no id: with merge=true every todo needs the id of the task it updates (or a new id to add one)", at)
		}
		if td.ID != "" {
			if j, dup := seen[td.ID]; dup {
				return tally.Errorf(tally.CodeInvalid, "arguments", "%s.id %q repeats todos[%d].id; ids must be unique", at, td.ID, j)
			}
			seen[td.ID] = i
		}
		if err := checkText(at+".content", td.Content, !merge); err != nil {
			return err
		}
		if err := checkText(at+".activeForm", td.ActiveForm, false); err != nil {
			return err
		}
		if err := listStatus(at+".status", td.Status, merge); err != nil {
			return err
		}
	}
	return nil
}

func (c *List) replace(todos []Todo, now time.Time) {
	// Ids the call names itself (unique: checked with the arguments) are
	// spoken for before any todo without one gets a new id or takes an
	// old task by its text.
	kept := make(map[string]bool, len(todos))
	for _, td := range todos {
		if td.ID != "" {
			kept[td.ID] = true
			c.reserveID(td.ID)
		}
	}
	next := make([]Task, 0, len(todos))
	for _, td := range todos {
		var t Task
		if old := c.match(td, kept); old != nil {
			t = old.clone()
		} else {
			t = Task{Item: tally.Item{ID: td.ID, Source: tally.SourceTodo}}
			if t.ID == "" {
				t.ID = c.newID()
			}
		}
		c.reserveID(t.ID)
		kept[t.ID] = true
		if t.Title != td.Content || t.Status != td.Status || t.ActiveForm != td.ActiveForm {
			t.UpdatedAt = now
		}
		t.Title, t.Status, t.RawStatus, t.ActiveForm = td.Content, td.Status, "", td.ActiveForm
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
func (c *List) match(td Todo, taken map[string]bool) *Task {
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

func (c *List) mergeTodos(todos []Todo, now time.Time) error {
	for i, td := range todos {
		t := c.find(td.ID)
		if t == nil {
			if strings.TrimSpace(td.Content) == "" {
				return tally.Errorf(tally.CodeInvalid, "arguments", "todos[%d] adds task %q, which needs a content", i, td.ID)
			}
			st := td.Status
			if st == tally.StatusUnknown {
				st = tally.StatusPending
			}
			c.Tasks = append(c.Tasks, Task{Item: tally.Item{ID: td.ID, Title: td.Content, ActiveForm: td.ActiveForm, Status: st, Source: tally.SourceTodo}, UpdatedAt: now})
			c.reserveID(td.ID)
			continue
		}
		if td.Content != "" {
			t.Title = td.Content
		}
		if td.Status != tally.StatusUnknown {
			t.Status = td.Status
		}
		if td.ActiveForm != "" {
			t.ActiveForm = td.ActiveForm
		}
		t.UpdatedAt = now
	}
	return nil
}
