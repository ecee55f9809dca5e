package planview

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/termstyle"
)

// ViewOptions are what the text views need beyond the plan.
type ViewOptions struct {
	// Now is the time elapsed times are counted to.
	Now time.Time
	// Location is where times are shown; nil means time.Local.
	Location *time.Location
	// Limit, for the summary: the planned tasks shown after the active
	// ones, the rest counted in one line and complete tasks folded into
	// one. 0 shows every task, unless the plan has LargePlan tasks or
	// more, when it is DefaultLimit.
	Limit int
}

// A plan with LargePlan tasks or more is summarised: complete tasks
// folded, active ones shown, then the next DefaultLimit planned.
const (
	LargePlan    = 100
	DefaultLimit = 3
)

// The icons of a task or step.
const (
	iconComplete = "✓"
	iconActive   = "→"
	iconPlanned  = "○"
	iconBlocked  = "⚠"
)

// barWidth is the progress bar's width in cells.
const barWidth = 20

// maxNameWidth bounds a task or step name in a table row.
const maxNameWidth = 40

// RenderSummary writes the whole plan: progress with a bar, the scope,
// then a row per task (icon, id, name, X/Y, and for an active task its
// current step), then the folder's problems.
func RenderSummary(w io.Writer, p *plan.Plan, o ViewOptions) error {
	b := &strings.Builder{}
	done, total := p.Progress()
	if total == 0 && len(p.Problems) == 0 {
		fmt.Fprintf(b, "No tasks in %s yet.\n", p.Dir)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(b, "Progress: %d/%d (%d%%)\n%s\n", done, total, plan.Percent(done, total), bar(done, total))
	b.WriteString(scopeLine(p) + "\n\n")
	limit := o.Limit
	if limit == 0 && total >= LargePlan {
		limit = DefaultLimit
	}
	var rows [][]string
	if limit <= 0 {
		for _, t := range p.Tasks {
			rows = append(rows, taskRow(p, t))
		}
		writeTable(b, rows)
	} else {
		writeLimited(b, p, limit)
	}
	writeProblems(b, p.Problems)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLimited folds complete tasks into one line, shows every active
// task and the next limit planned ones, and counts the rest.
func writeLimited(b *strings.Builder, p *plan.Plan, limit int) {
	var complete []string
	var rows [][]string
	planned := 0
	for _, t := range p.Tasks {
		switch t.Status {
		case plan.TaskComplete:
			complete = append(complete, t.ID)
		case plan.TaskActive:
			rows = append(rows, taskRow(p, t))
		default:
			if planned < limit {
				rows = append(rows, taskRow(p, t))
			}
			planned++
		}
	}
	if n := len(complete); n > 0 {
		if slices.Equal(complete, idsOf(p.Tasks[:n])) {
			fmt.Fprintf(b, "%s %s-%s (%d complete)\n", iconComplete, complete[0], complete[n-1], n)
		} else {
			fmt.Fprintf(b, "%s %d complete\n", iconComplete, n)
		}
	}
	writeTable(b, rows)
	if more := planned - limit; more > 0 {
		fmt.Fprintf(b, "…and %d more planned\n", more)
	}
}

func idsOf(ts []*plan.Task) []string {
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return ids
}

func taskRow(p *plan.Plan, t *plan.Task) []string {
	done, total := t.Progress()
	row := []string{taskIcon(p, t), t.ID, cut(t.Name, maxNameWidth), fmt.Sprintf("%d/%d", done, total)}
	if t.Status == plan.TaskActive {
		if cur := t.Current(); cur != nil {
			step := cur.ID + ": " + cut(cur.Name, maxNameWidth)
			if e, ok := p.Blocked(t.ID); ok {
				step += " (blocked" + reasonSuffix(e.Reason) + ")"
			}
			row = append(row, step)
		}
	}
	return row
}

func taskIcon(p *plan.Plan, t *plan.Task) string {
	switch t.Status {
	case plan.TaskComplete:
		return iconComplete
	case plan.TaskActive:
		if _, blocked := p.Blocked(t.ID); blocked {
			return iconBlocked
		}
		return iconActive
	}
	return iconPlanned
}

func reasonSuffix(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

func bar(done, total int) string {
	filled := 0
	if total > 0 {
		filled = (done*barWidth + total/2) / total
	}
	return strings.Repeat("█", filled) + strings.Repeat("░", barWidth-filled)
}

// scopeLine: how many tasks, against how many were planned, and the quick
// tasks done outside the plan.
func scopeLine(p *plan.Plan) string {
	s := p.ScopeNow()
	line := fmt.Sprintf("Scope: %s", plural(s.Current, "task"))
	switch d := s.Current - s.Original; {
	case d == 0:
		line += " (no changes)"
	case d > 0:
		line += fmt.Sprintf(" (%d planned, +%d)", s.Original, d)
	default:
		line += fmt.Sprintf(" (%d planned, %d)", s.Original, d)
	}
	if q := p.QuickTasks(); q > 0 {
		line += fmt.Sprintf(" │ Quick: %d done", q)
	}
	return line
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func writeProblems(b *strings.Builder, probs plan.Problems) {
	if len(probs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s:\n", plural(len(probs), "problem"))
	for _, pr := range probs {
		fmt.Fprintf(b, "%s %s\n", iconBlocked, pr)
	}
}

// RenderTask writes one task: goal, status and progress, each step with
// what done means for it, and when it started from the ledger.
func RenderTask(w io.Writer, p *plan.Plan, id string, o ViewOptions) error {
	t := p.Task(id)
	if t == nil {
		if why, bad := p.Invalid[id]; bad {
			return tally.Errorf(tally.CodeInvalid, "show task", "%s cannot be used: %s", id, why)
		}
		return tally.Errorf(tally.CodeNotFound, "show task", "no task %s in %s", id, p.Dir)
	}
	b := &strings.Builder{}
	done, total := t.Progress()
	fmt.Fprintf(b, "%s: %s\n", t.ID, t.Name)
	fmt.Fprintf(b, "Goal: %s\n", t.Goal)
	fmt.Fprintf(b, "Status: %s │ Progress: %d/%d (%d%%)\n", t.Status, done, total, plan.Percent(done, total))
	if p.Promoted(t.ID) {
		b.WriteString("Promoted from a quick task\n")
	}
	b.WriteString("\nSteps:\n")
	blocked, isBlocked := p.Blocked(t.ID)
	cur := t.Current()
	for i, s := range t.Steps {
		if i > 0 {
			b.WriteString("\n")
		}
		icon, note := iconPlanned, ""
		switch {
		case s.Status == plan.StepComplete:
			icon = iconComplete
		case isBlocked && s.ID == blocked.Step:
			icon, note = iconBlocked, "  ← blocked"+reasonSuffix(blocked.Reason)
		case s.Status == plan.StepInProgress:
			icon = iconActive
		}
		if cur != nil && s.ID == cur.ID && t.Status == plan.TaskActive && note == "" {
			note = "  ← current"
		}
		fmt.Fprintf(b, "%s %-3s %s%s\n", icon, s.ID, s.Name, note)
		fmt.Fprintf(b, "%s Done: %s\n", strings.Repeat(" ", 5), s.Done)
	}
	b.WriteString("\n" + timesLine(p, t, o) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// timesLine: when the task started, and how long it has run or took.
func timesLine(p *plan.Plan, t *plan.Task, o ViewOptions) string {
	started, completed := p.Started(t.ID), p.Completed(t.ID)
	switch {
	case started.IsZero() && t.Status == plan.TaskPlanned:
		return "Not started"
	case started.IsZero():
		return "Started: not in the ledger"
	case t.Status == plan.TaskComplete && !completed.IsZero():
		return fmt.Sprintf("Started: %s │ Completed: %s │ Took: %s",
			stamp(started, o), stamp(completed, o), Duration(completed.Sub(started)))
	}
	return fmt.Sprintf("Started: %s │ Elapsed: %s", stamp(started, o), Duration(o.Now.Sub(started)))
}

// RenderDone lists the complete tasks, the most recently completed first,
// with when each was completed and how long it took.
func RenderDone(w io.Writer, p *plan.Plan, o ViewOptions) error {
	var ts []*plan.Task
	for _, t := range p.Tasks {
		if t.Status == plan.TaskComplete {
			ts = append(ts, t)
		}
	}
	slices.SortStableFunc(ts, func(a, b *plan.Task) int { return p.Completed(b.ID).Compare(p.Completed(a.ID)) })
	rows := make([][]string, 0, len(ts))
	for _, t := range ts {
		done, total := t.Progress()
		when, took := "", ""
		if c := p.Completed(t.ID); !c.IsZero() {
			when = stamp(c, o)
			if s := p.Started(t.ID); !s.IsZero() {
				took = Duration(c.Sub(s))
			}
		}
		rows = append(rows, []string{iconComplete, t.ID, cut(t.Name, maxNameWidth), fmt.Sprintf("%d/%d", done, total), when, took})
	}
	return writeList(w, "Completed tasks", rows, fmt.Sprintf("Total: %d completed", len(rows)), "No task is complete yet.")
}

// RenderActive lists the active tasks with their current step and how
// long they have run.
func RenderActive(w io.Writer, p *plan.Plan, o ViewOptions) error {
	var rows [][]string
	for _, t := range p.Tasks {
		if t.Status != plan.TaskActive {
			continue
		}
		row := taskRow(p, t)
		for len(row) < 5 {
			row = append(row, "")
		}
		if s := p.Started(t.ID); !s.IsZero() {
			row = append(row, "started "+stamp(s, o)+" ("+Duration(o.Now.Sub(s))+")")
		}
		rows = append(rows, row)
	}
	return writeList(w, "Active tasks", rows, fmt.Sprintf("Total: %d active", len(rows)), "No task is active.")
}

// RenderBlocked lists the steps under a blocked notice, with the reason
// and since when.
func RenderBlocked(w io.Writer, p *plan.Plan, o ViewOptions) error {
	var rows [][]string
	for _, t := range p.Tasks {
		e, ok := p.Blocked(t.ID)
		if !ok {
			continue
		}
		s := t.Step(e.Step)
		reason := e.Reason
		if reason == "" {
			reason = "(no reason given)"
		}
		rows = append(rows, []string{iconBlocked, t.ID + "." + s.ID, cut(s.Name, maxNameWidth), reason, "since " + stamp(e.At, o)})
	}
	return writeList(w, "Blocked steps", rows, fmt.Sprintf("Total: %d blocked", len(rows)), "No step is blocked.")
}

func writeList(w io.Writer, title string, rows [][]string, total, empty string) error {
	b := &strings.Builder{}
	if len(rows) == 0 {
		b.WriteString(empty + "\n")
	} else {
		b.WriteString(title + "\n\n")
		writeTable(b, rows)
		b.WriteString("\n" + total + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTable writes rows with columns padded to their widest cell (in
// terminal cells), two spaces apart; the icon column takes one space.
func writeTable(b *strings.Builder, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], termstyle.Width(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString(" ")
				if i > 1 {
					line.WriteString(" ")
				}
			}
			if i < len(r)-1 {
				c = termstyle.Pad(c, widths[i])
			}
			line.WriteString(c)
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// cut shortens s to width terminal cells, ending it with "…" if cut.
func cut(s string, width int) string { return termstyle.Truncate(s, width) }

func stamp(t time.Time, o ViewOptions) string {
	loc := o.Location
	if loc == nil {
		loc = time.Local
	}
	return t.In(loc).Format("Jan 2, 15:04")
}

// Duration is d as a person reads it: "45m", "2h 15m", "3d 4h".
func Duration(d time.Duration) string {
	if d < time.Minute {
		return "<1m"
	}
	m := int(d / time.Minute)
	switch {
	case m < 60:
		return fmt.Sprintf("%dm", m)
	case m < 24*60:
		return fmt.Sprintf("%dh %dm", m/60, m%60)
	}
	return fmt.Sprintf("%dd %dh", m/(24*60), m%(24*60)/60)
}
