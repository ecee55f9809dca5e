package cli

import (
	"io"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// TableOptions shape RenderSessions' output.
type TableOptions struct {
	// Terminal lays the table out for a person: a header, aligned columns,
	// short ids, relative times, titles cut to Width. Otherwise it is for
	// a program: tab-separated, no header, full ids, RFC 3339 times,
	// nothing cut.
	Terminal bool
	Width    int
	Now      time.Time
	Home     string
	Color    bool
}

// shortID is how much of a session id the table shows; `tally show`
// accepts any unique prefix.
const shortID = 8

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
	// colOrigin is where a pushed session came from (user@machine). It is
	// there only when a listed session has one, so a machine's own list
	// keeps its eight columns.
	colOrigin
	numColumns
)

var headers = [numColumns]string{"ID", "AGENT", "PROJECT", "TITLE", "ACTIVITY", "DONE", "STEP", "LAST", "ORIGIN"}

// RenderSessions writes one row per session, in the order given.
func RenderSessions(w io.Writer, sessions []tally.Session, o TableOptions) error {
	var names projectNames
	if o.Terminal {
		projects := make([]string, len(sessions))
		for i := range sessions {
			projects[i] = sessions[i].Project
		}
		names = newProjectNames(o.Home, projects...)
	}
	rows := make([][numColumns]string, len(sessions))
	cols := colOrigin
	for i := range sessions {
		rows[i] = sessionRow(&sessions[i], o, names)
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
	widths := columnWidths(rows, cols, o.Width, func() int { return names.distinctWidth(minProject, maxProject) })
	for i := range rows {
		if termstyle.Width(rows[i][colProject]) > widths[colProject] {
			// Named again for the narrower column: which parts tell the
			// projects apart depends on how many fit.
			rows[i][colProject] = names.name(sessions[i].Project, widths[colProject])
		}
	}
	st := termstyle.Painter{On: o.Color}
	writeRow := func(r [numColumns]string, act tally.Activity, header bool) {
		var line strings.Builder
		for c := range cols {
			if widths[c] == 0 {
				continue // left out to fit
			}
			cell := termstyle.Truncate(r[c], widths[c])
			if c < cols-1 {
				cell = termstyle.Pad(cell, widths[c]) + "  "
			}
			switch {
			case header:
				cell = st.Paint(termstyle.Bold, cell)
			case c == colActivity:
				cell = strings.Replace(cell, r[c], st.Activity(act), 1)
			case c == colID || c == colLast:
				cell = st.Paint(termstyle.Fg(termstyle.Gray), cell)
			}
			line.WriteString(cell)
		}
		// The columns fit any width of 80 or more; below that the row is
		// cut rather than wrapped, which would break every row in two.
		b.WriteString(termstyle.Truncate(strings.TrimRight(line.String(), " "), o.Width) + "\n")
	}
	writeRow(headers, 0, true)
	for i, r := range rows {
		writeRow(r, sessions[i].Activity, false)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sessionRow(s *tally.Session, o TableOptions, names projectNames) [numColumns]string {
	step := ""
	if cur := s.Progress.Current; cur != nil {
		step = oneLine(cur.Label())
	}
	var r [numColumns]string
	r[colAgent] = s.Agent.String()
	r[colTitle] = oneLine(s.Title)
	r[colActivity] = termstyle.ActivityLabel(s.Activity)
	r[colProgress] = fraction(s.Progress.Done, s.Progress.Total)
	r[colStep] = step
	r[colOrigin] = originText(s)
	if o.Terminal {
		r[colID] = s.ID
		if len(r[colID]) > shortID {
			r[colID] = r[colID][:shortID]
		}
		r[colProject] = names.name(s.Project, maxProject)
		r[colLast] = ago(s.LastActivity, o.Now)
		if r[colTitle] == "" {
			r[colTitle] = "-"
		}
		if r[colStep] == "" {
			r[colStep] = "-"
		}
	} else {
		r[colID] = s.ID
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
// has it, and a title cut to a few letters names nothing.
func columnWidths(rows [][numColumns]string, cols column, total int, leastProject func() int) [numColumns]int {
	var w [numColumns]int
	for c := range cols {
		w[c] = termstyle.Width(headers[c])
	}
	for _, r := range rows {
		for c := range cols {
			w[c] = max(w[c], termstyle.Width(r[c]))
		}
	}
	if total <= 0 {
		return w
	}
	fixed := 2 * (int(cols) - 1)
	for c := range cols {
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
