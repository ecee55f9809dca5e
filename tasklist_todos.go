package tally

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

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
