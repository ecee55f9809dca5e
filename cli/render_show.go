package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// ShowOptions shape RenderShow's output.
type ShowOptions struct {
	// Full lists every item; otherwise finished items fold into one
	// "… +N done" line: what is left to do is what a glance is for.
	Full bool
	// Width truncates each line to this many columns (0: never).
	Width int
	Now   time.Time
	Home  string
	Color bool
}

// RenderShow writes one session: a header, its own list, then each
// sub-agent's list.
func RenderShow(w io.Writer, s tally.Session, o ShowOptions) error {
	st := termstyle.Painter{On: o.Color}
	var b strings.Builder
	title := oneLine(s.Title)
	if title == "" {
		title = "(untitled)"
	}
	line := func(text string) { b.WriteString(text + "\n") }
	line(st.Paint(termstyle.Bold, termstyle.Truncate(title, o.Width)))
	where := []string{s.Agent.String(), projectPath(s.Project, o.Home), "session " + s.ID}
	if origin := originText(&s); origin != "" {
		where = append(where, "from "+origin)
	}
	line(termstyle.Truncate(strings.Join(where, " · "), o.Width))
	facts := termstyle.Truncate(termstyle.ActivityLabel(s.Activity)+" · "+doneText(s.Progress)+" · last activity "+ago(s.LastActivity, o.Now), o.Width)
	line(strings.Replace(facts, termstyle.ActivityLabel(s.Activity), st.Activity(s.Activity), 1))
	line("")
	if len(s.Items) == 0 && len(s.SubAgents) == 0 {
		line("No todo list yet.")
	} else {
		line(st.Paint(termstyle.Bold, "Tasks "+fraction(s.Progress.Done, s.Progress.Total)))
		renderItems(&b, s.Items, o, st)
	}
	for _, sub := range s.SubAgents {
		line("")
		line(st.Paint(termstyle.Bold, termstyle.Truncate("Sub-agent "+sub.ID+" "+fraction(sub.Progress.Done, sub.Progress.Total), o.Width)))
		renderItems(&b, sub.Items, o, st)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func doneText(p tally.Progress) string {
	if p.Total == 0 {
		return "no items"
	}
	return fmt.Sprintf("%d/%d done", p.Done, p.Total)
}

// itemIndent sets items under their list's heading.
const itemIndent = "  "

// renderItems writes a list, one item a line. In compact mode completed
// and cancelled items are counted into one closing line instead: what is
// left to do is what a glance is for.
func renderItems(b *strings.Builder, items []tally.ItemView, o ShowOptions, st termstyle.Painter) {
	if len(items) == 0 {
		b.WriteString(itemIndent + st.Paint(termstyle.Fg(termstyle.Gray), "(empty)") + "\n")
		return
	}
	open := openIDs(items)
	done, cancelled := 0, 0
	for i := range items {
		it := &items[i]
		if !o.Full {
			switch it.Status {
			case tally.StatusCompleted:
				done++
				continue
			case tally.StatusCancelled:
				cancelled++
				continue
			case tally.StatusUnknown, tally.StatusPending, tally.StatusInProgress, tally.StatusFailed, tally.StatusBlocked:
			}
		}
		b.WriteString(itemLine(it, open, o, st) + "\n")
	}
	if fold := foldText(done, cancelled); fold != "" {
		b.WriteString(itemIndent + st.Paint(termstyle.Fg(termstyle.Gray), fold) + "\n")
	}
}

// foldText is the row finished items fold into: "… +3 done".
func foldText(done, cancelled int) string {
	var parts []string
	if done > 0 {
		parts = append(parts, fmt.Sprintf("+%d done", done))
	}
	if cancelled > 0 {
		parts = append(parts, fmt.Sprintf("+%d cancelled", cancelled))
	}
	if len(parts) == 0 {
		return ""
	}
	return termstyle.Ellipsis + " " + strings.Join(parts, ", ")
}

// itemLine is "icon label  (note)". The label is the activeForm while the
// item is worked on; the note says what the icon cannot: which open items
// block it, the agent's own word for a status Tally does not know, or
// whether ✗ means failed or cancelled.
func itemLine(it *tally.ItemView, open map[string]bool, o ShowOptions, st termstyle.Painter) string {
	m := termstyle.MarkOf(it)
	label := oneLine(it.Label())
	var note string
	switch m {
	case termstyle.MarkBlocked:
		note = blockedNote(it, open)
	case termstyle.MarkStopped, termstyle.MarkUnknown:
		note = it.StatusWord()
	case termstyle.MarkPending, termstyle.MarkActive, termstyle.MarkDone:
	}
	text := label
	if note != "" {
		text += "  (" + note + ")"
	}
	// The icon is one column wide; the indent and a space follow it.
	text = termstyle.Truncate(text, max(o.Width-termstyle.Width(itemIndent)-2, 0))
	if note != "" && strings.HasSuffix(text, "("+note+")") {
		text = strings.TrimSuffix(text, "("+note+")") + st.Paint(termstyle.Fg(termstyle.Gray), "("+note+")")
	}
	if m == termstyle.MarkActive {
		text = st.Paint(termstyle.Fg(termstyle.Amber), text)
	}
	return itemIndent + st.Icon(m) + " " + text
}

func blockedNote(it *tally.ItemView, open map[string]bool) string {
	var ids []string
	for _, id := range it.BlockedBy {
		if open[id] {
			ids = append(ids, "#"+id)
		}
	}
	if len(ids) == 0 {
		return "blocked"
	}
	return "blocked by " + strings.Join(ids, ", ")
}

// openIDs are the ids of the list's items that still have work left: only
// those block anything.
func openIDs(items []tally.ItemView) map[string]bool {
	open := make(map[string]bool, len(items))
	for i := range items {
		if items[i].ID != "" && items[i].Status.Open() {
			open[items[i].ID] = true
		}
	}
	return open
}
