package tui

import (
	"strconv"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planview"
)

// planFold is the size past which a plan's planned tasks are cut to the
// next few (seed 04: a project of 100+ tasks shows the tasks done folded,
// the active ones, the next planned and "…and N more planned").
const planFold = 100

// planNext is how many planned tasks a plan of planFold or more shows.
const planNext = 6

// planRows lays a plan's tasks out as the expanded panel's rows in w
// columns and at most n lines: each task by its id, name and X/Y steps,
// the active one with its current step under it, a blocked one saying
// why. Tasks done run together fold to one line; when the rows would not
// fit in n lines, or the plan is large, planned tasks share rows in two
// columns; a plan of planFold tasks or more shows the next planNext
// planned ones and counts the rest. Beside each line, the task it shows
// (an index into tasks).
func planRows(tasks []planview.TaskReport, w, n int, spin string, p *palette) ([]string, []ref) {
	items := planItems(tasks)
	index := make([]int, len(items)) // the task each kept item is
	for i := range index {
		index[i] = i
	}
	more := 0
	if len(items) >= planFold {
		var kept []tally.ItemView
		var at []int
		next := 0
		for i := range items {
			if items[i].Status == tally.StatusPending && !items[i].Blocked {
				if next == planNext {
					more++
					continue
				}
				next++
			}
			kept, at = append(kept, items[i]), append(at, i)
		}
		items, index = kept, at
	}
	lines, _ := foldList(items, w, spin, p, len(items) > largeList, true)
	large := len(items) > largeList || len(lines)+min(more, 1) > n
	lines, refs := foldList(items, w, spin, p, large, true)
	for i := range refs {
		if refs[i].item >= 0 {
			refs[i].item = index[refs[i].item]
		}
		if refs[i].right >= 0 {
			refs[i].right = index[refs[i].right]
		}
	}
	if more > 0 {
		lines = append(lines, cut(render(p.faint, "○ …and "+strconv.Itoa(more)+" more planned"), w))
		refs = append(refs, noRef)
	}
	return lines, refs
}

// planItems are a plan's tasks as items: the task's id, its name and X/Y
// steps as the title; the active task's current step as what it is doing;
// a blocked task blocked, with its step and why in its title.
func planItems(tasks []planview.TaskReport) []tally.ItemView {
	out := make([]tally.ItemView, len(tasks))
	for i := range tasks {
		t := &tasks[i]
		if t.Task == nil {
			out[i] = tally.ItemView{Item: tally.Item{Title: "?", Status: tally.StatusUnknown}}
			continue
		}
		it := tally.ItemView{Item: tally.Item{ID: t.ID, Title: oneLine(t.Name) + "  " +
			strconv.Itoa(t.Progress.Done) + "/" + strconv.Itoa(t.Progress.Total)}}
		switch t.Status {
		case plan.TaskComplete:
			it.Status = tally.StatusCompleted
		case plan.TaskActive:
			it.Status = tally.StatusInProgress
			if cur := t.Step(t.Current); cur != nil {
				it.ActiveForm = cur.ID + " " + oneLine(cur.Name)
			}
		default:
			it.Status = tally.StatusPending
		}
		if b := t.Blocked; b != nil && t.Status == plan.TaskActive {
			it.Status, it.Blocked = tally.StatusBlocked, true
			it.Title += "  " + b.Step + " blocked"
			if b.Reason != "" {
				it.Title += ": " + oneLine(b.Reason)
			}
		}
		out[i] = it
	}
	return out
}

// planTaskLines is one task of a plan in full, as Enter or a click on its
// row shows it: its goal, then each step with its status and what done
// means for it, the current one marked.
func planTaskLines(t *planview.TaskReport, w int, p *palette) []string {
	items := planItems([]planview.TaskReport{*t})
	m := markOf(&items[0])
	out := []string{"", cut(render(p.title, t.ID+" "+oneLine(t.Name))+"  "+p.mark(m)+" "+string(t.Status)+" "+
		strconv.Itoa(t.Progress.Done)+"/"+strconv.Itoa(t.Progress.Total)+render(p.faint, "  (Enter or click again, or Esc, to close)"), w)}
	if g := oneLine(t.Goal); g != "" {
		out = append(out, cut("  "+render(p.faint, "goal: ")+g, w))
	}
	for _, st := range t.Steps {
		it := tally.ItemView{Item: tally.Item{Title: oneLine(st.Name)}}
		switch st.Status {
		case plan.StepComplete:
			it.Status = tally.StatusCompleted
		case plan.StepInProgress:
			it.Status = tally.StatusInProgress
		default:
			it.Status = tally.StatusPending
		}
		if t.Blocked != nil && t.Blocked.Step == st.ID {
			it.Status, it.Blocked = tally.StatusBlocked, true
		}
		line := "  " + p.mark(markOf(&it)) + " " + render(p.faint, st.ID) + " " + it.Title
		if st.ID == t.Current && t.Status == plan.TaskActive {
			line += render(p.faint, "  ← current")
		}
		out = append(out, cut(line, w))
		if d := oneLine(st.Done); d != "" {
			out = append(out, cut("      "+render(p.faint, "done: "+d), w))
		}
		if it.Blocked && t.Blocked.Reason != "" {
			out = append(out, cut("      "+render(p.warn, "blocked: "+oneLine(t.Blocked.Reason)), w))
		}
	}
	return out
}
