package cli

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/termstyle"
)

// recentShown is how many sessions the overview lists when none is
// active.
const recentShown = 5

// overviewView is what one drawing of the overview shows.
type overviewView struct {
	Active []tally.Session
	// Recent are the latest sessions, listed when none is active so that
	// the first screen after a scan is not empty.
	Recent []tally.Session
	// Roots are where agents' logs were looked for, shown when there is
	// no session at all.
	Roots []agentRoot
}

func (o *overviewOptions) overview(ctx context.Context, st store.Store) (overviewView, error) {
	var v overviewView
	var err error
	now := o.now()
	if v.Active, err = (sessionQuery{Active: true}).run(ctx, st, now); err != nil || len(v.Active) > 0 {
		return v, err
	}
	if v.Recent, err = (sessionQuery{Filter: tally.SessionFilter{Limit: recentShown}}).run(ctx, st, now); err != nil || len(v.Recent) > 0 {
		return v, err
	}
	v.Roots = o.agentRoots()
	return v, nil
}

func (o *overviewOptions) drawOverview(v overviewView, drawn int) error {
	w := o.env.Out
	st := termstyle.Painter{On: o.env.color()}
	if drawn > 0 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	switch {
	case len(v.Active) > 0:
		return o.renderTable(v.Active)
	case len(v.Recent) > 0:
		if _, err := io.WriteString(w, "No active sessions. The most recent:\n\n"); err != nil {
			return err
		}
		if err := o.renderTable(v.Recent); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n"+st.Paint(termstyle.Fg(termstyle.Gray),
			"'tally sessions' lists them all; 'tally show ID' shows one's list.")+"\n")
		return err
	}
	if _, err := io.WriteString(w, "No sessions yet. "); err != nil {
		return err
	}
	if err := renderRoots(w, v.Roots, o.env.Home); err != nil {
		return err
	}
	_, err := io.WriteString(w, "A session shows here as soon as an agent writes its log.\n")
	return err
}

// agentRoot is a folder where an agent's logs are looked for.
type agentRoot struct {
	Agent  tally.Agent
	Path   string
	Exists bool
}

// agentRoots are the folders every agent's logs are looked for in, in the
// order the agents are read.
func (a *app) agentRoots() []agentRoot {
	var out []agentRoot
	for _, ad := range a.adapters() {
		for _, root := range ad.Roots() {
			_, err := os.Stat(root)
			out = append(out, agentRoot{Agent: ad.Agent(), Path: root, Exists: err == nil})
		}
	}
	return out
}

// renderRoots says where Tally looked for agents' logs, and which of those
// folders do not exist: the usual reason for finding nothing is an agent
// that keeps its logs elsewhere (see the --*-dir and --*-home flags).
func renderRoots(w io.Writer, roots []agentRoot, home string) error {
	return renderRootsAs(w, "Tally looked for agents' logs in:", roots, home)
}

// renderRootsAs is renderRoots under another first line.
func renderRootsAs(w io.Writer, header string, roots []agentRoot, home string) error {
	var b strings.Builder
	b.WriteString(header + "\n")
	width := 0
	for _, r := range roots {
		width = max(width, termstyle.Width(r.Agent.String()))
	}
	for _, r := range roots {
		line := "  " + termstyle.Pad(r.Agent.String(), width) + "  " + projectname.Tilde(r.Path, home)
		if !r.Exists {
			line += "  (not there)"
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("Point Tally at other folders with the flags in 'tally --help'.\n")
	_, err := io.WriteString(w, b.String())
	return err
}
