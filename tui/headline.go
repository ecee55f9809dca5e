package tui

import (
	"strconv"

	"charm.land/lipgloss/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/planview"
	"github.com/tallyhq/tally/termstyle"
)

// PanelState is which of its collapsed forms the Task Panel shows.
type PanelState uint8

const (
	// PanelEmpty: the session keeps no list ("No tasks").
	PanelEmpty PanelState = iota
	// PanelPlanning: the list is a plan waiting for approval ("Planning…").
	PanelPlanning
	// PanelWorking: work is left and not held up ("3/7 ◼ Writing the limiter").
	PanelWorking
	// PanelBlocked: nothing is in progress and the next open item is
	// blocked ("3/7 ⚠ Deploy BLOCKED").
	PanelBlocked
	// PanelComplete: every item is done ("✓ 5/5 Complete").
	PanelComplete
)

// Headline is the Task Panel in one line: what the collapsed panel shows.
type Headline struct {
	State       PanelState
	Done, Total int
	// Icon and Step name the step the line is about: the current one, the
	// next one, or the blocked one.
	Icon string
	Step string
	// Line, when set, is the whole line as another model words it (a
	// plan's "2/5 → T003 [S2]"), drawn as it is in State's colour.
	Line string
	// Plan, for a session following a plan, is the plan's tasks: the rows
	// of the expanded panel, each opening to its steps.
	Plan []planview.TaskReport
}

// A Headliner describes a session whose work is kept in a model other than
// its todo list (a plan's "2/5 → T003 [S2]"). ok false leaves the session
// to its todo list's headline.
type Headliner interface {
	Headline(s *tally.Session) (h Headline, ok bool)
}

// noListTool is said of a session whose log shows its agent had no todo
// tool: it kept no list, and waiting will not bring one.
const noListTool = "Kept no list: this agent had no todo tool"

// todoHeadline derives the headline of a session's own list. plan says the
// list waits for approval before any work starts.
func todoHeadline(s *tally.Session, plan bool) Headline {
	p := s.Progress
	h := Headline{Done: p.Done, Total: p.Total}
	switch {
	case plan:
		h.State = PanelPlanning
	case p.Total == 0:
		h.State = PanelEmpty
		if s.KeptNoList() {
			// Not "no tasks yet": the agent had no tool to keep a list.
			h.Line = noListTool
		}
	case p.Done == p.Total:
		h.State = PanelComplete
	case p.Current != nil:
		h.State, h.Icon, h.Step = PanelWorking, termstyle.MarkActive.Icon(), oneLine(p.Current.Label())
	default:
		h.State = PanelWorking
		if it := nextOpen(s.Items); it != nil {
			m := markOf(it)
			h.Icon, h.Step = m.Icon(), oneLine(it.Title)
			if m == termstyle.MarkBlocked {
				h.State, h.Icon = PanelBlocked, "⚠"
			}
		}
	}
	return h
}

// nextOpen is the first item with work left, cancelled ones aside.
func nextOpen(items []tally.ItemView) *tally.ItemView {
	for i := range items {
		if it := &items[i]; it.Status.Open() {
			return it
		}
	}
	return nil
}

// line draws the headline in at most w columns, without the [T] hint.
func (h Headline) line(p *palette, w int) string {
	if h.Line != "" {
		return render(p.headlineStyle(h.State), cut(oneLine(h.Line), w))
	}
	frac := strconv.Itoa(h.Done) + "/" + strconv.Itoa(h.Total)
	switch h.State {
	case PanelEmpty:
		return render(p.faint, cut("No tasks", w))
	case PanelPlanning:
		text := "Planning…"
		if h.Total > 0 {
			text += " " + plural(h.Total, "task") + " waiting for approval"
		}
		return render(p.active, cut(text, w))
	case PanelComplete:
		return cut(render(p.done, "✓ "+frac+" Complete"), w)
	case PanelBlocked:
		head := frac + " " + render(p.warn, h.Icon) + " "
		tail := " " + render(p.warn, "BLOCKED")
		return head + cut(h.Step, w-width(head)-width(tail)) + tail
	case PanelWorking:
	}
	head := frac + " "
	if h.Icon != "" {
		head += render(p.iconStyle(h.Icon), h.Icon) + " "
	}
	return cut(head+h.Step, w)
}

func (p *palette) headlineStyle(s PanelState) lipgloss.Style {
	switch s {
	case PanelEmpty:
		return p.faint
	case PanelPlanning:
		return p.active
	case PanelBlocked:
		return p.warn
	case PanelComplete:
		return p.done
	case PanelWorking:
	}
	return p.plain
}

// iconStyle colours an item's icon as its mark; any other icon (a plan's
// →) in the title's colour.
func (p *palette) iconStyle(icon string) lipgloss.Style {
	for _, m := range []termstyle.Mark{termstyle.MarkActive, termstyle.MarkPending, termstyle.MarkDone,
		termstyle.MarkBlocked, termstyle.MarkStopped, termstyle.MarkUnknown} {
		if m.Icon() == icon {
			return p.markStyle(m)
		}
	}
	return p.title
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
