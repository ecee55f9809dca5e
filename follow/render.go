package follow

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/normalize"
	"github.com/tallyhq/tally/termstyle"
)

type renderer struct {
	w             *bufio.Writer
	live, color   bool
	width, height int
	shown         *normalize.TodoList
	modelSeen     bool
	// drawn is how many rows the list occupies on screen (live mode).
	drawn int
	// text is assistant text not yet ended by a newline.
	text strings.Builder
	// printed is the last list printed plainly: the same drawing again
	// tells a log's reader nothing (a stream repeats a list unchanged as
	// a turn goes on).
	printed string
}

// above writes text (whole lines) above the list.
func (r *renderer) above(text string) {
	if !r.live {
		r.w.WriteString(text)
		return
	}
	r.erase()
	r.w.WriteString(text)
	r.draw()
}

// show replaces the shown list with l (nil: clear it; cleared names the
// list that was emptied, for the plain log).
func (r *renderer) show(l, cleared *normalize.TodoList) {
	r.shown = l
	if r.live {
		r.erase()
		r.draw()
		return
	}
	var frame string
	if l == nil {
		frame = r.header(cleared, false) + ": cleared\n\n"
	} else {
		frame = strings.Join(r.rows(), "\n") + "\n\n"
	}
	if frame != r.printed {
		r.w.WriteString(frame)
	}
	r.printed = frame
}

func (r *renderer) erase() {
	if r.drawn > 0 {
		r.w.WriteString(ansi.CursorPreviousLine(r.drawn) + ansi.EraseScreenBelow)
		r.drawn = 0
	}
}

func (r *renderer) draw() {
	if r.shown == nil {
		return
	}
	for _, row := range r.rows() {
		r.w.WriteString(row + "\n")
		r.drawn++
	}
}

// rows is the drawing of the shown list: a header, then one row per item,
// within the screen's height and each row within its width.
func (r *renderer) rows() []string {
	l := r.shown
	rows := []string{r.header(l, true)}
	maxRows := len(l.Items) + 1
	if r.live {
		maxRows = max(r.height-1, 2)
	}
	for i, it := range l.Items {
		if len(rows) == maxRows-1 && i < len(l.Items)-1 {
			rows = append(rows, r.paint(termstyle.Faint, fmt.Sprintf("   … %d more", len(l.Items)-i)))
			break
		}
		rows = append(rows, r.item(it))
	}
	if r.live {
		for i, row := range rows {
			rows[i] = termstyle.Truncate(row, r.width-1)
		}
	}
	return rows
}

// header names the list's owner: the agent, and a sub-agent by its name
// where the stream gives one ("claude · Audit string helpers"), else by
// its id ("claude/a1930ad882c0f656e").
func (r *renderer) header(l *normalize.TodoList, withProgress bool) string {
	agent, _, _ := strings.Cut(l.AgentID, "/")
	owner := l.AgentID
	if l.Name != "" {
		owner = agent + " · " + l.Name
	}
	name := r.paint(termstyle.Fg(termstyle.AgentColor(tally.Agent(agent))), owner)
	h := "Plan (" + name + ")"
	if l.List == tally.RuntimeList {
		h = "Tool calls (" + name + ")"
	}
	if withProgress {
		h += fmt.Sprintf(": %d/%d done", l.Progress.Done, l.Progress.Total)
	}
	return h
}

// textStyles set a streamed item's text apart by its state: done in
// green, stopped faint, the one being worked on bold.
var textStyles = map[termstyle.Mark]ansi.Style{
	termstyle.MarkDone:    termstyle.Fg(termstyle.Green),
	termstyle.MarkStopped: termstyle.Faint,
	termstyle.MarkActive:  termstyle.Bold,
}

// markOf is a streamed item's mark, as every surface draws the state. The
// unified vocabulary has four words (failed arrives as cancelled); a
// blocked item is marked blocked and says so in words too. An item codex
// exec reports open (completed:false, in progress or not) is pending to
// the eye, as the same item in `tally show`.
func markOf(it *normalize.TodoItem) termstyle.Mark {
	switch it.Status {
	case normalize.TodoCompleted:
		return termstyle.MarkDone
	case normalize.TodoCancelled:
		return termstyle.MarkStopped
	case normalize.TodoInProgress:
		return termstyle.MarkActive
	case normalize.TodoPending:
		if it.Blocked {
			return termstyle.MarkBlocked
		}
	}
	return termstyle.MarkPending
}

func (r *renderer) item(it normalize.TodoItem) string {
	m := markOf(&it)
	text := it.Text
	if it.Status == normalize.TodoInProgress && it.ActiveForm != "" {
		text = it.ActiveForm
	}
	if it.TallyStatus != "" {
		text += " (" + it.TallyStatus + ")"
	} else if it.Blocked {
		text += " (blocked)"
	}
	return r.paint(termstyle.Fg(m.Color()), m.Icon()) + " " + r.paint(textStyles[m], text)
}

func (r *renderer) paint(s ansi.Style, text string) string {
	return termstyle.Painter{On: r.color}.Paint(s, text)
}
