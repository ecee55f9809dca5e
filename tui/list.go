package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/termstyle"
)

// listView is the session list: a header and one row per session of the
// window it is given, already sorted and filtered.
type listView struct {
	rows []tally.Session
	// ids are the rows' ids as the list shows them (roster.shortID).
	ids []string
	// selected indexes rows; -1 selects none.
	selected int
	width    int
	now      time.Time
	names    projectname.Names
	// projectWidth is the room, from least up to most, in which every
	// project's name differs (nil: least).
	projectWidth func(least, most int) int
}

// listColumns are the widths of one frame's columns. Title and step share
// what the fixed columns leave.
type listColumns struct {
	id, agent, project, title, activity, progress, bar, step, age int
}

const (
	colGap    = 1
	colMarker = 2 // "› " before the selected row
)

// activityWord is the word a person reads for a.
func activityWord(a tally.Activity) string { return termstyle.ActivityLabel(a) }

func (v listView) columns() listColumns {
	c := listColumns{id: tally.MinShortID, agent: 8, project: 12, activity: 11, progress: 5, age: 4}
	for _, id := range v.ids {
		c.id = max(c.id, width(oneLine(id)))
	}
	switch {
	case v.width >= 140:
		c.project, c.bar = 24, 8
	case v.width >= 100:
		c.project, c.bar = 16, 5
	case v.width >= 80:
		c.bar = 4
	}
	// Projects that end alike ("…/work") get the room that tells them
	// apart, up to a quarter of the line.
	if v.projectWidth != nil {
		c.project = max(c.project, v.projectWidth(c.project, max(c.project, v.width/4)))
	}
	fixed := colMarker + c.id + c.agent + c.project + c.activity + c.progress + c.age + 7*colGap
	if c.bar > 0 {
		fixed += c.bar + colGap
	}
	flex := max(v.width-fixed, 2)
	hasStep := false
	for i := range v.rows {
		if label, _ := v.rows[i].Step(); label != "" {
			hasStep = true
			break
		}
	}
	if !hasStep {
		c.title = flex
		return c
	}
	c.title = (flex*55 + 99) / 100
	c.step = flex - c.title
	return c
}

func (v listView) header(p *palette) string {
	c := v.columns()
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", colMarker))
	b.WriteString(fit("ID", c.id+colGap))
	b.WriteString(fit("AGENT", c.agent+colGap))
	b.WriteString(fit("PROJECT", c.project+colGap))
	b.WriteString(fit("TITLE", c.title+colGap))
	b.WriteString(fit("ACTIVITY", c.activity+colGap))
	b.WriteString(fit("DONE", c.progress+colGap))
	if c.bar > 0 {
		b.WriteString(strings.Repeat(" ", c.bar+colGap))
	}
	if c.step > 0 {
		b.WriteString(fit("STEP", c.step+colGap))
	}
	b.WriteString(padLeft("AGE", c.age))
	return render(p.faint, cut(b.String(), v.width))
}

// lines draws the rows, each exactly width columns wide.
func (v listView) lines(p *palette) []string {
	c := v.columns()
	out := make([]string, len(v.rows))
	for i := range v.rows {
		id := v.rows[i].ID
		if i < len(v.ids) {
			id = v.ids[i]
		}
		out[i] = v.row(&v.rows[i], id, i == v.selected, c, p)
	}
	return out
}

func (v listView) row(s *tally.Session, id string, selected bool, c listColumns, p *palette) string {
	var b strings.Builder
	if selected {
		b.WriteString(render(p.title, "›") + " ")
	} else {
		b.WriteString("  ")
	}
	b.WriteString(render(p.faint, fit(oneLine(id), c.id)) + " ")
	b.WriteString(render(p.agent(s.Agent), fit(oneLine(s.Agent.String()), c.agent)) + " ")
	b.WriteString(fit(projectText(v.names, s.Project, c.project), c.project) + " ")
	title := oneLine(s.Title)
	if title == "" {
		title = render(p.faint, "-")
	}
	b.WriteString(fit(title, c.title) + " ")
	b.WriteString(activityCell(s, c.activity, p) + " ")
	frac := "-"
	if s.Progress.Total > 0 {
		frac = strconv.Itoa(s.Progress.Done) + "/" + strconv.Itoa(s.Progress.Total)
	}
	b.WriteString(padLeft(frac, c.progress) + " ")
	if c.bar > 0 {
		b.WriteString(p.bar(s.Progress.Done, s.Progress.Total, c.bar) + " ")
	}
	label, runtime := s.Step() // the model's step, else the call its runtime runs
	step, style := oneLine(label), p.active
	if runtime {
		style = p.faint
	}
	b.WriteString(fit(render(style, step), c.step))
	if c.step > 0 {
		b.WriteString(" ")
	}
	b.WriteString(render(p.faint, padLeft(age(s.LastActivity, v.now), c.age)))
	line := fit(b.String(), v.width)
	if selected {
		// Inner styles would end the selection's background part-way.
		return p.selected.Render(ansi.Strip(line))
	}
	return line
}

// activityCell is what a session is doing, in w columns. A session that
// has not ended shows its most urgent flag there instead, marked with ! so
// that it reads without colour too ("! input", "! looping+1"): it is what
// calls a person back. An ended one says ended (a day-old finished list
// calls nobody back); its detail still lists its flags.
func activityCell(s *tally.Session, w int, p *palette) string {
	if cell := termstyle.FlagCell(s.Flags); cell != "" && s.Activity != tally.ActivityEnded {
		return render(p.flag(s.Flags.List()[0]), fit("! "+cell, w))
	}
	return render(p.act(s.Activity), fit(activityWord(s.Activity), w))
}

// padLeft right-aligns s in w columns.
func padLeft(s string, w int) string {
	s = cut(s, w)
	if n := w - width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}
