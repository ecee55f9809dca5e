package tui

import (
	"strconv"

	"github.com/tallyhq/tally"
)

// toggleHint is the panel's clickable [T]: it is always on the panel's
// first line, at its right end.
const toggleHint = "[T]"

// panelView is the Task Panel of one session at a width: collapsed to its
// headline, or expanded to its whole list.
type panelView struct {
	s        *tally.Session
	head     Headline
	expanded bool
	// spin is the spinner frame beside the step in progress; "" when the
	// session is not working (a stalled step does not spin).
	spin string
	// approvable: A approves this plan.
	approvable bool
	width      int
	// maxLines bounds the expanded panel, header included.
	maxLines int
	// cursor is the row chosen with Tab, which Enter opens (-1: none):
	// an index into the plan's tasks, or the list's items.
	cursor int
}

// lines draws the panel: one line collapsed, at most maxLines expanded.
func (v panelView) lines(p *palette) []string {
	lines, _ := v.layout(p)
	return lines
}

// layout draws the panel and says which item each line shows.
func (v panelView) layout(p *palette) ([]string, []ref) {
	w := v.width
	if !v.expanded {
		return []string{spread(v.head.line(p, w-width(toggleHint)-1), render(p.faint, toggleHint), w)}, []ref{noRef}
	}
	if len(v.head.Plan) > 0 {
		return v.planLayout(p)
	}
	out := []string{v.headLine("Tasks", p)}
	var body []string
	var refs []ref
	switch v.head.State {
	case PanelEmpty:
		body = []string{render(p.faint, "No tasks")}
	case PanelComplete:
		body = []string{render(p.done, "✓ All "+plural(v.head.Total, "task")+" complete")}
	case PanelPlanning:
		text := "Planning… waiting for approval"
		if v.approvable {
			text += ": press A to approve"
		}
		body, refs = foldItems(v.s.Items, w, v.spin, p)
		body = append([]string{cut(render(p.active, text), w)}, body...)
		refs = append([]ref{noRef}, refs...)
	case PanelWorking, PanelBlocked:
		body, refs = foldItems(v.s.Items, w, v.spin, p)
	}
	return v.finish(out, body, refs, p)
}

// headLine is the expanded panel's first line: its name, done of total
// and the share done, the toggle's hint at the right.
func (v panelView) headLine(name string, p *palette) string {
	head := render(p.title, name) + " " + strconv.Itoa(v.head.Done) + "/" + strconv.Itoa(v.head.Total)
	if v.head.Total > 0 {
		head += render(p.faint, " · "+strconv.Itoa(100*v.head.Done/v.head.Total)+"%")
	}
	return spread(head, render(p.faint, toggleHint), v.width)
}

// planLayout is the expanded panel of a session following a plan: the
// plan's tasks as rows (planRows), then the session's own list, if it
// keeps one, under a line of its own.
func (v panelView) planLayout(p *palette) ([]string, []ref) {
	w := v.width
	out := []string{v.headLine("Blueprint", p)}
	var body []string
	var refs []ref
	switch v.head.State {
	case PanelComplete:
		body, refs = []string{render(p.done, "✓ All "+plural(v.head.Total, "task")+" complete")}, []ref{noRef}
	case PanelPlanning:
		body, refs = []string{render(p.active, "Planning… no task started")}, []ref{noRef}
	case PanelEmpty, PanelWorking, PanelBlocked:
	}
	rows, rrefs := planRows(v.head.Plan, w, v.maxLines-1-len(body), v.spin, p)
	body, refs = append(body, rows...), append(refs, rrefs...)
	if len(v.s.Items) > 0 {
		own := todoHeadline(v.s, false)
		body = append(body, cut(render(p.faint, "Session's own list ")+own.line(p, w-18), w))
		lines, _ := foldItems(v.s.Items, w, v.spin, p)
		body = append(body, lines...)
		for len(refs) < len(body) {
			refs = append(refs, noRef)
		}
	}
	return v.finish(out, body, refs, p)
}

// finish clips the body to the panel's lines, marks the cursor's row and
// lines the refs up with the lines.
func (v panelView) finish(out, body []string, refs []ref, p *palette) ([]string, []ref) {
	w := v.width
	all := len(body)
	body = clip(body, v.maxLines-1, w, p)
	if v.cursor >= 0 {
		shown := len(body)
		if shown < all {
			shown-- // the "… +N more lines" line
		}
		for i := range min(shown, len(refs)) {
			if r := refs[i]; r.item == v.cursor || r.right == v.cursor {
				body[i] = render(p.selected, fit(body[i], w))
				break
			}
		}
	}
	refs = append([]ref{noRef}, refs...)
	for len(refs) < len(body)+1 {
		refs = append(refs, noRef)
	}
	refs = refs[:len(body)+1]
	if len(body) < all {
		refs[len(body)] = noRef // the "… +N more lines" line
	}
	return append(out, body...), refs
}

// clip keeps at most n lines, the last saying how many were left out.
func clip(lines []string, n, w int, p *palette) []string {
	if n <= 0 {
		return nil
	}
	if len(lines) <= n {
		return lines
	}
	more := len(lines) - n + 1
	return append(lines[:n-1:n-1], cut(render(p.faint, "… +"+strconv.Itoa(more)+" more lines"), w))
}

// subAgentLines draws the sub-agents' lists under their parent's panel,
// each by name: a headline when collapsed, its items when expanded.
func subAgentLines(subs []tally.SubAgentList, expanded bool, spin string, w int, p *palette) []string {
	var out []string
	for i := range subs {
		sub := &subs[i]
		s := tally.Session{Items: sub.Items, Progress: sub.Progress}
		h := todoHeadline(&s, false)
		name := "↳ " + render(p.bold, oneLine(sub.Label())) + " "
		out = append(out, cut(name+h.line(p, w-width(name)), w))
		if expanded {
			lines, _ := foldItems(sub.Items, w-2, spin, p)
			for _, l := range lines {
				out = append(out, "  "+l)
			}
		}
	}
	return out
}
