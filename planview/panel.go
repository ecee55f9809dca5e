package planview

import (
	"fmt"

	"github.com/tallyhq/tally/plan"
)

// PanelLine is the plan in one line, for a status bar (the terminal UI's
// collapsed Task Panel, the board's header):
//
//	No tasks            no task folders
//	Planning…           tasks written, none started
//	2/5 → T003 [S2]     T003 active, at step S2 (+N when more are active)
//	2/5 ⚠ T003 BLOCKED  the active task's step is blocked (any active
//	                    task's: plan.Plan.Focus)
//	2/5 ○ T003          between tasks: T003 is the next planned
//	✓ 5/5 Complete      every task complete
//
// A nil plan (no plan folder) is "No tasks".
func PanelLine(p *plan.Plan) string {
	if p == nil || len(p.Folders) == 0 {
		return "No tasks"
	}
	done, total := p.Progress()
	var active []*plan.Task
	var next *plan.Task
	for _, t := range p.Tasks {
		switch {
		case t.Status == plan.TaskActive:
			active = append(active, t)
		case t.Status == plan.TaskPlanned && next == nil:
			next = t
		}
	}
	switch {
	case total > 0 && done == total && len(p.Invalid) == 0:
		return fmt.Sprintf("%s %d/%d Complete", iconComplete, done, total)
	case len(active) == 0 && done == 0:
		return "Planning…"
	case len(active) == 0 && next != nil:
		return fmt.Sprintf("%d/%d %s %s", done, total, iconPlanned, next.ID)
	case len(active) == 0:
		return fmt.Sprintf("%d/%d", done, total)
	}
	t := p.Focus()
	var line string
	if _, blocked := p.Blocked(t.ID); blocked {
		line = fmt.Sprintf("%d/%d %s %s BLOCKED", done, total, iconBlocked, t.ID)
	} else {
		line = fmt.Sprintf("%d/%d %s %s", done, total, iconActive, t.ID)
		if cur := t.Current(); cur != nil {
			line += " [" + cur.ID + "]"
		}
	}
	if len(active) > 1 {
		line += fmt.Sprintf(" +%d", len(active)-1)
	}
	return line
}
