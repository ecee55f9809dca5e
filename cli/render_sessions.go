package cli

import (
	"io"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/termstyle"
)

// TableOptions shape RenderSessions' output.
type TableOptions struct {
	// Terminal lays the table out for a person: a header, aligned columns,
	// short ids (tally.ShortIDs: unique among the rows), relative times,
	// titles cut to Width. Otherwise it is for
	// a program: tab-separated, no header, full ids, RFC 3339 times,
	// nothing cut.
	Terminal bool
	Width    int
	Now      time.Time
	Home     string
	Color    bool
	// Plans are the plan lines of the listed projects that keep a plan
	// (project path → "2/5 → T003 [S2]"), shown under a terminal's table.
	Plans map[string]string
}

// minFlex is the narrowest the title and step columns are cut to, and
// minProject the narrowest the project column is.
const (
	minFlex    = 12
	minProject = 12
)

type column uint8

const (
	colID column = iota
	colAgent
	colProject
	colTitle
	colActivity
	colProgress
	colStep
	colLast
	// colFlags is last in the data (a column added for programs goes at
	// the end) and follows the activity on a terminal (see order).
	colFlags
	// colOrigin is where a pushed session came from (user@machine). It is
	// there only when a listed session has one, so a machine's own list
	// keeps its columns.
	colOrigin
	numColumns
)

var headers = [numColumns]string{"ID", "AGENT", "PROJECT", "TITLE", "ACTIVITY", "DONE", "STEP", "LAST", "FLAGS", "ORIGIN"}

// order is the columns' order on a terminal: what needs a person beside
// what the session is doing.
var order = [numColumns]column{colID, colAgent, colProject, colTitle, colActivity, colFlags, colProgress, colStep, colLast, colOrigin}

// RenderSessions writes one row per session, in the order given.
func RenderSessions(w io.Writer, sessions []tally.Session, o TableOptions) error {
	var names projectname.Names
	if o.Terminal {
		projects := make([]string, len(sessions))
		for i := range sessions {
			projects[i] = sessions[i].Project
		}
		names = projectname.New(o.Home, projects...)
	}
	var short map[string]string
	if o.Terminal {
		short = tally.ShortIDs(sessions)
	}
	rows := make([][numColumns]string, len(sessions))
	cols := colOrigin
	for i := range sessions {
		rows[i] = sessionRow(&sessions[i], o, names)
		if o.Terminal {
			rows[i][colID] = short[sessions[i].ID]
		}
		if rows[i][colOrigin] != "" {
			cols = numColumns
		}
	}
	var b strings.Builder
	if !o.Terminal {
		for _, r := range rows {
			b.WriteString(strings.Join(r[:cols], "\t") + "\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	// The flags column shows when some session has a flag: a table of
	// sessions that need nobody keeps its room for titles.
	var omit [numColumns]bool
	omit[colFlags] = true
	omit[colOrigin] = cols != numColumns
	for i := range sessions {
		if !sessions[i].Flags.Empty() {
			omit[colFlags] = false
		}
	}
	widths := columnWidths(rows, o.Width, omit, func() int { return names.DistinctWidth(minProject, maxProject) })
	for i := range rows {
		if termstyle.Width(rows[i][colProject]) > widths[colProject] {
			// Named again for the narrower column: which parts tell the
			// projects apart depends on how many fit.
			rows[i][colProject] = names.Name(sessions[i].Project, widths[colProject])
		}
	}
	st := termstyle.Painter{On: o.Color}
	last := 0 // the last column shown: it is not padded
	for i, c := range order {
		if widths[c] > 0 {
			last = i
		}
	}
	writeRow := func(r [numColumns]string, s *tally.Session) {
		var line strings.Builder
		for i, c := range order {
			if widths[c] == 0 {
				continue // left out to fit
			}
			cell := termstyle.Truncate(r[c], widths[c])
			if i < last {
				cell = termstyle.Pad(cell, widths[c]) + "  "
			}
			switch {
			case s == nil:
				cell = st.Paint(termstyle.Bold, cell)
			case c == colActivity:
				cell = strings.Replace(cell, r[c], st.Activity(s.Activity), 1)
			case c == colFlags && !s.Flags.Empty():
				cell = strings.Replace(cell, r[c], st.Paint(termstyle.Fg(termstyle.FlagCellColor(s.Flags)), r[c]), 1)
			case c == colID || c == colLast || c == colFlags:
				cell = st.Paint(termstyle.Fg(termstyle.Gray), cell)
			}
			line.WriteString(cell)
		}
		// The columns fit any width of 80 or more; below that the row is
		// cut rather than wrapped, which would break every row in two.
		b.WriteString(termstyle.Truncate(strings.TrimRight(line.String(), " "), o.Width) + "\n")
	}
	writeRow(headers, nil)
	for i, r := range rows {
		writeRow(r, &sessions[i])
	}
	writePlans(&b, sessions, o, names, st)
	_, err := io.WriteString(w, b.String())
	return err
}

// writePlans lists the plans of the listed projects, in the order the
// projects first appear: "plan  ~/src/shop  2/5 → T003 [S2]".
func writePlans(b *strings.Builder, sessions []tally.Session, o TableOptions, names projectname.Names, st termstyle.Painter) {
	seen := map[string]bool{}
	var lines []string
	for i := range sessions {
		p := sessions[i].Project
		line, ok := o.Plans[p]
		if !ok || seen[p] {
			continue
		}
		seen[p] = true
		lines = append(lines, termstyle.Truncate(st.Paint(termstyle.Bold, "plan")+"  "+names.Name(p, maxProject)+"  "+line, o.Width))
	}
	if len(lines) > 0 {
		b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
}

func sessionRow(s *tally.Session, o TableOptions, names projectname.Names) [numColumns]string {
	label, _ := s.Step() // the model's step, else the call its runtime runs
	step := oneLine(label)
	var r [numColumns]string
	r[colID] = s.ID
	r[colAgent] = s.Agent.String()
	r[colTitle] = oneLine(s.Title)
	r[colActivity] = termstyle.ActivityLabel(s.Activity)
	r[colProgress] = fraction(s.Progress.Done, s.Progress.Total)
	r[colStep] = step
	r[colOrigin] = originText(s)
	if o.Terminal {
		r[colFlags] = termstyle.FlagCell(s.Flags)
		if r[colFlags] == "" {
			r[colFlags] = "-"
		}
		r[colProject] = names.Name(s.Project, maxProject)
		r[colLast] = ago(s.LastActivity, o.Now)
		if r[colTitle] == "" {
			r[colTitle] = "-"
		}
		switch {
		case r[colStep] != "":
		case s.TasksIn != "":
			r[colStep] = "tasks in " + s.TasksIn
		default:
			r[colStep] = "-"
		}
	} else {
		r[colFlags] = s.Flags.String()
		r[colProject] = s.Project
		if !s.LastActivity.IsZero() {
			r[colLast] = s.LastActivity.UTC().Format(time.RFC3339)
		}
	}
	return r
}

// columnWidths fits the table in total columns (0: no limit). Every column
// but title and step is as wide as its widest cell; title and step share
// what is left: the step keeps its width if it needs at most half, and the
// title, which is what a row is recognised by, takes the rest. When that
// leaves either narrower than minFlex (an 80-column terminal), the project
// gives up cells first, down to leastProject() (no fewer than its names
// stay different in), then the step column is left out (width 0): `tally show`
// has it, and a title cut to a few letters names nothing. Columns in omit
// are left out (width 0) from the start.
func columnWidths(rows [][numColumns]string, total int, omit [numColumns]bool, leastProject func() int) [numColumns]int {
	var w [numColumns]int
	shown := 0
	for c := range numColumns {
		if omit[c] {
			continue
		}
		shown++
		w[c] = termstyle.Width(headers[c])
		for _, r := range rows {
			w[c] = max(w[c], termstyle.Width(r[c]))
		}
	}
	if total <= 0 {
		return w
	}
	fixed := 2 * (shown - 1)
	for c := range numColumns {
		if c != colTitle && c != colStep {
			fixed += w[c]
		}
	}
	room := total - fixed
	if w[colTitle]+w[colStep] <= room {
		return w
	}
	if short := 2*minFlex - room; short > 0 {
		give := min(short, max(w[colProject]-leastProject(), 0))
		w[colProject] -= give
		room += give
	}
	if room < 2*minFlex {
		room += 2 // the step's gap is freed with it
		w[colStep] = 0
		w[colTitle] = max(min(w[colTitle], room), 1)
		return w
	}
	step := min(w[colStep], max(room-w[colTitle], room/2))
	w[colStep] = max(step, minFlex)
	w[colTitle] = max(min(w[colTitle], room-step), minFlex)
	return w
}

// originText is where a pushed session came from, as user@machine; "" for
// a session of this store's own indexer.
func originText(s *tally.Session) string {
	switch {
	case s.User != "" && s.Machine != "":
		return s.User + "@" + s.Machine
	case s.Machine != "":
		return s.Machine
	}
	return s.User
}
