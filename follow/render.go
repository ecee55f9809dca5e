package follow

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/normalize"
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
}

const (
	esc       = "\x1b["
	reset     = esc + "0m"
	clearDown = esc + "J"
)

// agentColours are 256-colour codes, one per agent so that two agents in
// one pipeline are told apart at a glance.
var agentColours = map[tally.Agent]string{
	tally.AgentClaude: "38;5;208",
	tally.AgentCodex:  "38;5;42",
	tally.AgentGemini: "38;5;33",
	tally.AgentACP:    "38;5;135",
	tally.AgentHermes: "38;5;178",
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
	if l == nil {
		fmt.Fprintf(r.w, "%s: cleared\n\n", r.header(cleared, false))
		return
	}
	for _, row := range r.rows() {
		r.w.WriteString(row + "\n")
	}
	r.w.WriteString("\n")
}

func (r *renderer) erase() {
	if r.drawn > 0 {
		fmt.Fprintf(r.w, "%s%dF%s", esc, r.drawn, clearDown)
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
			rows = append(rows, r.paint("2", fmt.Sprintf("   … %d more", len(l.Items)-i)))
			break
		}
		rows = append(rows, r.item(it))
	}
	if r.live {
		for i, row := range rows {
			rows[i] = cut(row, r.width-1)
		}
	}
	return rows
}

func (r *renderer) header(l *normalize.TodoList, withProgress bool) string {
	name := r.paint(colourOf(l.AgentID), l.AgentID)
	h := "📋 Plan (" + name + ")"
	if l.List == runtimeList {
		h = "🔧 Tool calls (" + name + ")"
	}
	if withProgress {
		h += fmt.Sprintf(": %d/%d done", l.Progress.Done, l.Progress.Total)
	}
	return h
}

func colourOf(agentID string) string {
	agent, _, _ := strings.Cut(agentID, "/")
	if c, ok := agentColours[tally.Agent(agent)]; ok {
		return c
	}
	return "36"
}

func (r *renderer) item(it normalize.TodoItem) string {
	icon, style := "◻", ""
	switch it.Status {
	case normalize.TodoCompleted:
		icon, style = "✅", "32"
	case normalize.TodoCancelled:
		icon, style = "❌", "2"
	case normalize.TodoInProgress:
		icon, style = "◼", "1"
	case normalize.TodoPending:
		if it.Lossy {
			icon = "⏳"
		}
	}
	text := it.Text
	if it.Status == normalize.TodoInProgress && it.ActiveForm != "" {
		text = it.ActiveForm
	}
	if it.TallyStatus != "" {
		text += " (" + it.TallyStatus + ")"
	} else if it.Blocked {
		text += " (blocked)"
	}
	// Icons differ in width; pad to two columns so the texts line up.
	pad := strings.Repeat(" ", max(0, 2-uniseg.StringWidth(icon)))
	return icon + pad + " " + r.paint(style, text)
}

func (r *renderer) paint(style, s string) string {
	if !r.color || style == "" {
		return s
	}
	return esc + style + "m" + s + reset
}

// cut shortens s to at most width columns on screen, keeping escape
// sequences whole and closing any colour it cut into.
func cut(s string, width int) string {
	if uniseg.StringWidth(stripANSI(s)) <= width {
		return s
	}
	var b strings.Builder
	cols := 0
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], esc) {
			j := strings.IndexByte(s[i:], 'm')
			if j < 0 {
				break
			}
			b.WriteString(s[i : i+j+1])
			i += j + 1
			continue
		}
		g, _, w, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
		if cols+w > width-1 {
			break
		}
		b.WriteString(g)
		cols += w
		i += len(g)
	}
	b.WriteString("…")
	if strings.Contains(s, esc) {
		b.WriteString(reset)
	}
	return b.String()
}

func stripANSI(s string) string {
	if !strings.Contains(s, esc) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, esc)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return b.String()
		}
		s = s[i+j+1:]
	}
}
