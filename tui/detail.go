package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/termstyle"
)

// detailView is one session opened: who and where, its Task Panel, its
// sub-agents' lists under it, the runtime's tool progress apart, and the
// progress markers it reported.
type detailView struct {
	s     *tally.Session
	panel panelView
	// item is the item of the main list shown in full (-1: none).
	item  int
	width int
	now   time.Time
	names projectname.Names
}

// maxTools and maxMarkers bound the sections under the panel: the newest
// are shown.
const (
	maxTools   = 5
	maxMarkers = 5
)

// header is the fixed top of the detail screen: three lines and a rule.
func (v detailView) header(p *palette) []string {
	s, w := v.s, v.width
	who := render(p.agent(s.Agent), oneLine(s.Agent.String())) + "  " + projectText(v.names, s.Project, max(w/2, 12))
	when := age(s.LastActivity, v.now)
	if when != "now" && when != "-" {
		when += " ago"
	}
	state := render(p.act(s.Activity), activityWord(s.Activity)) + render(p.faint, " · "+when)
	title := oneLine(s.Title)
	if title == "" {
		title = "(untitled)"
	}
	facts := []string{"id " + oneLine(s.ID)}
	if o := origin(s.Machine, s.User); o != "" {
		facts = append(facts, "from "+oneLine(o))
	}
	if !s.StartedAt.IsZero() {
		facts = append(facts, "started "+s.StartedAt.In(v.now.Location()).Format("Jan 2 15:04"))
	}
	facts = append(facts, plural(s.Stats.Files, "file"), plural(int(s.Stats.Lines), "line"))
	if s.Stats.Malformed > 0 {
		facts = append(facts, strconv.FormatInt(s.Stats.Malformed, 10)+" unreadable")
	}
	return []string{
		spread(who, state, w),
		cut(render(p.bold, title), w),
		cut(render(p.faint, strings.Join(facts, " · ")), w),
		render(p.faint, strings.Repeat("─", w)),
	}
}

// body is everything under the header; the screen scrolls it.
func (v detailView) body(p *palette) []string {
	out := v.flagLines(p)
	out = append(out, v.requestLines(p)...)
	out = append(out, v.panel.lines(p)...)
	if plan := v.panel.head.Plan; len(plan) > 0 {
		if v.item >= 0 && v.item < len(plan) && plan[v.item].Task != nil {
			out = append(out, planTaskLines(&plan[v.item], v.width, p)...)
		}
	} else if v.item >= 0 && v.item < len(v.s.Items) {
		out = append(out, itemLines(&v.s.Items[v.item], v.s.Items, v.item, v.width, p)...)
	}
	subs, runtime := splitList(v.s.SubAgents, tally.RuntimeList)
	subs, proposal := splitList(subs, tally.ProposalList)
	if proposal != nil {
		// A plan proposed for approval (Codex's Plan mode): not the list
		// at work, not a sub-agent's.
		head := oneLine(proposal.Label()) + " " + strconv.Itoa(proposal.Progress.Done) + "/" + strconv.Itoa(proposal.Progress.Total)
		out = append(out, "", cut(render(p.title, head), v.width))
		lines, _ := foldItems(proposal.Items, v.width, v.panel.spin, p)
		out = append(out, lines...)
	}
	var own []tally.SubAgentList
	for i := 0; i < len(subs); i++ {
		if subs[i].Tally {
			// The session's Tally list is its own, not a sub-agent's:
			// drawn under its panel.
			own = append(own, subs[i])
			subs = append(subs[:i:i], subs[i+1:]...)
			i--
		}
	}
	if len(own) > 0 {
		out = append(out, "")
		out = append(out, subAgentLines(own, v.panel.expanded, v.panel.spin, v.width, p)...)
	}
	if len(subs) > 0 {
		out = append(out, "", render(p.title, "Sub-agents"))
		out = append(out, subAgentLines(subs, v.panel.expanded, v.panel.spin, v.width, p)...)
	}
	if runtime != nil {
		out = append(out, "")
		out = append(out, v.toolLines(runtime, p)...)
	}
	if n := len(v.s.Markers); n > 0 {
		out = append(out, "", render(p.title, "Progress markers"))
		for _, m := range v.s.Markers[max(n-maxMarkers, 0):] {
			out = append(out, cut(markerLine(m), v.width))
		}
	}
	return out
}

// flagLines are the session's flags, most urgent first, each with how
// long it has been so ("! looping for 3m"), and a blank line under them;
// none for a session without flags.
func (v detailView) flagLines(p *palette) []string {
	list := v.s.Flags.List()
	if len(list) == 0 {
		return nil
	}
	out := make([]string, 0, len(list)+1)
	for _, f := range list {
		line := render(p.flag(f), "! "+termstyle.FlagLabel(f))
		if since := v.s.Flags.Since(f); !since.IsZero() {
			line += render(p.faint, " for "+age(since, v.now))
		}
		if f == tally.FlagBlocked && v.s.BlockedReason != "" {
			line += ": " + oneLine(v.s.BlockedReason)
		}
		out = append(out, cut(line, v.width))
	}
	return append(out, "")
}

// requestLines are the session's open request to its user — what it asks,
// how long it has waited, the keys that answer it — and a blank line; none
// when nothing is open. Everything in it is the agent's text: one line
// each, cut.
func (v detailView) requestLines(p *palette) []string {
	for _, r := range v.s.Requests {
		if !r.Request.Open(v.now) {
			continue
		}
		what := oneLine(r.Tool)
		if r.Summary != "" {
			what += ": " + oneLine(r.Summary)
		}
		keys := "y allow · n deny"
		if r.Always {
			keys = "y allow · Y always · n deny"
		}
		return []string{
			cut(render(p.bold, "? "+what), v.width),
			cut(render(p.faint, "  waiting "+age(r.AskedAt, v.now)+" · "+keys+" (tally deny -m to tell the model why)"), v.width),
			"",
		}
	}
	return nil
}

// splitList takes the list id out of the sub-agents: the runtime's tool
// progress (tally.RuntimeList), what the agent's runtime did, or a plan
// proposed for approval (tally.ProposalList), neither a list a sub-agent
// keeps.
func splitList(all []tally.SubAgentList, id string) (subs []tally.SubAgentList, list *tally.SubAgentList) {
	for i := range all {
		if all[i].ID == id {
			list = &all[i]
			continue
		}
		subs = append(subs, all[i])
	}
	return subs, list
}

// toolLines is the runtime's tool calls: a count, then the newest few.
func (v detailView) toolLines(rt *tally.SubAgentList, p *palette) []string {
	calls, running, failed := rt.Progress.Total, rt.Progress.InProgress, 0
	if r := v.s.Runtime; r != nil { // counts the calls the list let go too
		calls, running, failed = r.Calls, r.Running, r.Failed
	}
	head := render(p.title, "Tool calls") + " " + strconv.Itoa(calls)
	if running > 0 {
		head += ", " + strconv.Itoa(running) + " running"
	}
	if failed > 0 {
		head += ", " + strconv.Itoa(failed) + " failed"
	}
	head += render(p.faint, " (the runtime's, not the model's list)")
	out := []string{cut(head, v.width)}
	items := rt.Items[max(len(rt.Items)-maxTools, 0):]
	for i := range items {
		out = append(out, itemLine(&items[i], items, "", v.width, p))
	}
	return out
}

func markerLine(m tally.Marker) string {
	if m.Unrecognised() {
		return "  ? " + oneLine(m.Line) + " — not a marker: " + oneLine(m.Reason)
	}
	parts := []string{oneLine(m.Task)}
	if m.Step != "" {
		parts = append(parts, "["+oneLine(m.Step)+"]")
	}
	parts = append(parts, oneLine(m.Verb))
	if m.Reason != "" {
		parts = append(parts, "— "+oneLine(m.Reason))
	}
	return "  " + strings.Join(parts, " ")
}

// maxDescription bounds the lines of an item's description.
const maxDescription = 6

// itemLines is one item in full, as a click on its row shows it.
func itemLines(it *tally.ItemView, list []tally.ItemView, pos, w int, p *palette) []string {
	m := markOf(it)
	out := []string{"", cut(render(p.title, "Task "+taskName(it.ID, pos))+"  "+p.mark(m)+" "+oneLine(it.StatusWord())+render(p.faint, "  (click again or Esc to close)"), w),
		cut("  "+render(p.bold, oneLine(it.Title)), w)}
	field := func(label, value string) {
		if value != "" {
			out = append(out, cut("  "+render(p.faint, label+" ")+oneLine(value), w))
		}
	}
	field("doing:", it.ActiveForm)
	field("owner:", it.Owner)
	field("blocked by:", strings.Join(tally.TitlesOf(it.BlockedBy, list), ", "))
	field("blocks:", strings.Join(tally.TitlesOf(it.Blocks, list), ", "))
	if it.Lossy {
		field("note:", "the agent's format cannot tell in progress from pending")
	}
	desc := strings.Split(strings.TrimSpace(it.Description), "\n")
	for i, d := range desc {
		if i == maxDescription {
			out = append(out, render(p.faint, "  …"))
			break
		}
		if d = oneLine(d); d != "" {
			out = append(out, cut("  "+d, w))
		}
	}
	return out
}

// origin is where a pushed session came from, as user@machine; "" for a
// session of the store's own.
func origin(machine, user string) string {
	switch {
	case machine != "" && user != "":
		return user + "@" + machine
	case machine != "":
		return machine
	}
	return user
}
