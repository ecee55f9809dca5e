package planview

import (
	"fmt"
	"strings"

	"github.com/tallyhq/tally/plan"
)

// Standing is where a plan stands, in one line for an agent whose context
// is given back (the SessionStart hook): the active task and the step it
// is at, or the next task to start, and how many tasks are complete.
//
//	Where the plan stands: T003 S2 next (task "Dashboard", step "Implement backend endpoints"); 2 of 5 tasks complete.
//	Where the plan stands: T003 S2 blocked: waiting (task "Dashboard"); 2 of 5 tasks complete.
//	Where the plan stands: T002 next, not started (task "Login Page"); 1 of 5 tasks complete.
//	Where the plan stands: every task is complete (5 of 5).
//
// "" for a nil plan or one with no valid task.
func Standing(p *plan.Plan) string {
	if p == nil || len(p.Tasks) == 0 {
		return ""
	}
	done, total := p.Progress()
	if done == total {
		return fmt.Sprintf("Where the plan stands: every task is complete (%d of %d).", done, total)
	}
	var active []string
	var next *plan.Task
	first := p.Focus() // the current focus: a blocked active task is never hidden behind another
	for _, t := range p.Tasks {
		switch {
		case t.Status == plan.TaskActive:
			if t != first {
				active = append(active, t.ID)
			}
		case t.Status == plan.TaskPlanned && next == nil:
			next = t
		}
	}
	var b strings.Builder
	b.WriteString("Where the plan stands: ")
	switch t := first; {
	case t == nil && next != nil:
		fmt.Fprintf(&b, "%s next, not started (task %q)", next.ID, next.Name)
	case t == nil:
		b.WriteString("no task is active")
	default:
		cur := t.Current()
		if e, blocked := p.Blocked(t.ID); blocked {
			fmt.Fprintf(&b, "%s %s blocked: %s (task %q)", t.ID, e.Step, e.Reason, t.Name)
		} else if cur != nil {
			fmt.Fprintf(&b, "%s %s next (task %q, step %q)", t.ID, cur.ID, t.Name, cur.Name)
		} else {
			fmt.Fprintf(&b, "%s active (task %q)", t.ID, t.Name)
		}
		if len(active) > 0 {
			fmt.Fprintf(&b, ", also active: %s", strings.Join(active, ", "))
		}
	}
	fmt.Fprintf(&b, "; %d of %d tasks complete.", done, total)
	return b.String()
}
