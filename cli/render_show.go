package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/termstyle"
)

// ShowOptions shape RenderShow's output.
type ShowOptions struct {
	// Full lists every item; otherwise finished items fold into one
	// "… +N done" line: what is left to do is what a glance is for.
	Full bool
	// Width truncates each line to this many columns (0: never); the
	// title is wrapped to it instead.
	Width int
	Now   time.Time
	Home  string
	Color bool
	// Plan is the plan line of the session's project ("2/5 → T003
	// [S2]"), "" when it keeps none.
	Plan string
	// Markers are the session's progress markers and what became of
	// each, when the store keeps them.
	Markers []tally.MarkerState
}

// RenderShow writes one session: a header (the title whole, wrapped to the
// width), its own list, then each sub-agent's list.
func RenderShow(w io.Writer, s tally.Session, o ShowOptions) error {
	st := termstyle.Painter{On: o.Color}
	var b strings.Builder
	title := oneLine(s.Title)
	if title == "" {
		title = "(untitled)"
	}
	line := func(text string) { b.WriteString(text + "\n") }
	// The title is shown whole, wrapped: show is where a title cut
	// elsewhere to one row is read in full.
	line(st.Paint(termstyle.Bold, termstyle.Wrap(title, o.Width)))
	kind := "session "
	if s.Shared {
		kind = "task list "
	}
	where := []string{s.Agent.String(), projectPath(s.Project, o.Home), kind + s.ID}
	if origin := originText(&s); origin != "" {
		where = append(where, "from "+origin)
	}
	line(termstyle.Truncate(strings.Join(where, " · "), o.Width))
	facts := termstyle.Truncate(termstyle.ActivityLabel(s.Activity)+" · "+doneText(s.Progress)+" · last activity "+ago(s.LastActivity, o.Now), o.Width)
	line(strings.Replace(facts, termstyle.ActivityLabel(s.Activity), st.Activity(s.Activity), 1))
	for _, l := range sharingLines(&s) {
		line(termstyle.Truncate(l, o.Width))
	}
	if o.Plan != "" {
		line(termstyle.Truncate(st.Paint(termstyle.Bold, "plan")+" "+o.Plan, o.Width))
	}
	for _, f := range s.Flags.List() {
		// What needs a person, most urgent first, each with since when.
		text := termstyle.Truncate("! "+termstyle.FlagLabel(f)+" since "+ago(s.Flags.Since(f), o.Now), o.Width)
		line(strings.Replace(text, termstyle.FlagLabel(f), st.Paint(termstyle.Fg(termstyle.FlagColor(f)), termstyle.FlagLabel(f)), 1))
	}
	for _, r := range s.Requests {
		// What the agent asked its user, and who answered, newest first.
		line(termstyle.Truncate(oneLine(requestLine(r.Request, o.Now)), o.Width))
	}
	line("")
	switch {
	case s.KeptNoList():
		// Not "yet": the agent had no tool to keep a list with.
		line("This agent kept no list: its log shows it had no todo tool.")
		line(termstyle.Wrap(s.ListToolsHint, o.Width))
	case len(s.Items) == 0 && len(s.SubAgents) == 0 && s.TasksIn != "":
	case len(s.Items) == 0 && len(s.SubAgents) == 0:
		line("No todo list yet.")
	default:
		line(st.Paint(termstyle.Bold, "Tasks "+fraction(s.Progress.Done, s.Progress.Total)))
		renderItems(&b, s.Items, o, st)
	}
	for _, sub := range s.SubAgents {
		line("")
		if sub.ID == tally.RuntimeList && s.Runtime != nil {
			// The runtime's calls, counted whole, apart from any list.
			head := "Tool calls " + strconv.Itoa(s.Runtime.Calls)
			if s.Runtime.Running > 0 {
				head += ", " + strconv.Itoa(s.Runtime.Running) + " running"
			}
			if s.Runtime.Failed > 0 {
				head += ", " + strconv.Itoa(s.Runtime.Failed) + " failed"
			}
			line(st.Paint(termstyle.Bold, termstyle.Truncate(head, o.Width)) + termstyle.Truncate(" (the runtime's, not the model's list)", max(o.Width-len(head), 0)))
			renderItems(&b, sub.Items, o, st)
			continue
		}
		head := "Sub-agent " + oneLine(sub.Label())
		switch {
		case sub.ID == tally.ProposalList:
			head = oneLine(sub.Label()) // the approval layer, not a sub-agent
		case sub.Tally:
			head = "Tally list " + strings.TrimPrefix(sub.ID, tally.TallyListPrefix)
		}
		line(st.Paint(termstyle.Bold, termstyle.Truncate(head+" "+fraction(sub.Progress.Done, sub.Progress.Total), o.Width)))
		renderItems(&b, sub.Items, o, st)
	}
	renderMarkers(&b, o, st)
	_, err := io.WriteString(w, b.String())
	return err
}

// sharingLines say who uses a task list several sessions share, or where
// a session that uses one keeps its tasks.
func sharingLines(s *tally.Session) []string {
	var out []string
	switch {
	case s.Shared && len(s.Writers) > 0:
		out = append(out, "shared by sessions "+strings.Join(s.Writers, ", "))
	case s.Shared:
		out = append(out, "shared by no session Tally has read (their logs may be gone)")
	case len(s.Writers) > 0:
		out = append(out, "its task list is shared with sessions "+strings.Join(s.Writers, ", "))
	}
	if s.TasksIn != "" {
		out = append(out, "its tasks are in the shared list "+s.TasksIn+": tally show "+s.TasksIn)
	}
	return out
}

func doneText(p tally.Progress) string {
	if p.Total == 0 {
		return "no items"
	}
	return fmt.Sprintf("%d/%d done", p.Done, p.Total)
}

// itemIndent sets items under their list's heading.
const itemIndent = "  "

// renderItems writes a list, one item a line. In compact mode, while
// items are left to do, completed and cancelled items are counted into one
// closing line instead: what is left to do is what a glance is for.
func renderItems(b *strings.Builder, items []tally.ItemView, o ShowOptions, st termstyle.Painter) {
	if len(items) == 0 {
		b.WriteString(itemIndent + st.Paint(termstyle.Fg(termstyle.Gray), "(empty)") + "\n")
		return
	}
	open := openIDs(items)
	// A list with nothing left to do is shown whole: folding it would
	// leave only "… +N done", which says nothing of what was done.
	fold := !o.Full && slices.ContainsFunc(items, func(it tally.ItemView) bool {
		return it.Status != tally.StatusCompleted && it.Status != tally.StatusCancelled
	})
	done, cancelled := 0, 0
	for i := range items {
		it := &items[i]
		if fold {
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
		b.WriteString(itemLine(it, items, open, o, st) + "\n")
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
// of its list block it, by their titles, the agent's own word for a status
// Tally does not know, or whether ✗ means failed or cancelled.
func itemLine(it *tally.ItemView, list []tally.ItemView, open map[string]bool, o ShowOptions, st termstyle.Painter) string {
	m := termstyle.MarkOf(it)
	label := oneLine(it.Label())
	var note string
	switch m {
	case termstyle.MarkBlocked:
		note = blockedNote(it, list, open)
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

func blockedNote(it *tally.ItemView, list []tally.ItemView, open map[string]bool) string {
	var ids []string
	for _, id := range it.BlockedBy {
		if open[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "blocked"
	}
	return "blocked by " + oneLine(strings.Join(tally.TitlesOf(ids, list), ", "))
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

// renderMarkers lists the session's progress markers and what became of
// each in its project's plan: "✓ progress: T001.S1 done  applied".
func renderMarkers(b *strings.Builder, o ShowOptions, st termstyle.Painter) {
	if len(o.Markers) == 0 {
		return
	}
	b.WriteString("\n" + st.Paint(termstyle.Bold, "Progress markers") + "\n")
	for _, m := range o.Markers {
		r := m.Result
		icon := "✓"
		switch r.Verdict {
		case tally.MarkerPending:
			icon = "…"
		case tally.MarkerRejected, tally.MarkerNoPlan:
			icon = "✗"
		case tally.MarkerSkipped, tally.MarkerUnchanged:
			icon = "–"
		case tally.MarkerApplied:
		}
		text := itemIndent + icon + " " + plan.Text(m.Marker) + "  " + strings.ReplaceAll(r.Verdict.String(), "_", " ")
		if r.Reason != "" && r.Verdict != tally.MarkerApplied {
			text += ": " + oneLine(r.Reason)
		}
		b.WriteString(termstyle.Truncate(text, o.Width) + "\n")
	}
}
