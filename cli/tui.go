package cli

import (
	"context"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/tasks"
	"github.com/tallyhq/tally/termstyle"
	"github.com/tallyhq/tally/tui"
)

// firstPage is how many of the newest sessions the dashboard's first frame
// reads; the rest are read after it is on screen.
const firstPage = 200

// termEnv are the variables that decide a terminal's colours.
var termEnv = []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "TMUX"}

func (a *app) tuiCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "tui",
		Short: "The live dashboard of every session (what tally runs on a terminal)",
		Long: `Open the full-screen dashboard: every agent session on the machine, active
ones first, and the Task Panel of the one in hand, live. Press ? in it for
the keys; q or Ctrl-C quits.

A bare 'tally' opens it too when standard output is a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !a.env.OutTTY {
				return tally.Errorf(tally.CodeInvalid, "tui", "the dashboard needs a terminal; use 'tally watch' or 'tally sessions' in a pipe")
			}
			return runTUI(cmd.Context(), a)
		},
	}
}

// runTUI shows the dashboard. It draws the newest sessions at once, then
// brings the index up to date and follows the agents' logs through the
// indexer's change stream, the stream the web board reads.
func runTUI(ctx context.Context, a *app) error {
	st, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	first, err := st.Records(ctx, tally.SessionFilter{Limit: firstPage})
	if err != nil {
		return err
	}
	diags := &diagnostics{}
	var p *tea.Program
	status := &scanStatus{}
	f, ready, err := a.followNow(ctx, st, func(pr index.ScanProgress) { status.report(p, pr) }, diags)
	if err != nil {
		return err
	}
	var env []string
	for _, k := range termEnv {
		if v := a.env.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	hctx, stopHeadlines := context.WithCancel(ctx)
	defer stopHeadlines()
	p = tui.Program(ctx, tui.Options{
		Now: a.env.Now, Home: a.env.Home, Color: a.env.color(), Records: first,
		Load: func(ctx context.Context, limit int) ([]tally.Record, error) {
			return st.Records(ctx, tally.SessionFilter{Limit: limit})
		},
		Approve:   a.approver(st),
		Looked:    a.looked(),
		Headliner: newPlanHeadliner(hctx, a.plans),
	}, tui.Terminal{In: a.env.In, Out: a.env.Out, Environ: env})

	feedCtx, stopFeed := context.WithCancel(ctx)
	defer stopFeed()
	go tui.Feed(feedCtx, p.Send, f.Changes)
	go func() {
		select {
		case <-ready:
			p.Send(tui.Status(""))
			a.nowLive()
		case <-feedCtx.Done():
		}
	}()
	err = tui.Run(ctx, p)
	stopFeed()
	if ixErr := f.stop(); err == nil && ctx.Err() == nil {
		err = ixErr
	}
	diags.flush(a.env.Err)
	return err
}

// approver is what A calls: tasks.SwitchMode, as `tally tasks approve`.
// A store that keeps no task lists approves nothing.
func (a *app) approver(st tally.Store) func(context.Context, string) error {
	ts, ok := st.(taskStore)
	if !ok {
		return nil
	}
	return func(ctx context.Context, list string) error {
		_, err := tasks.SwitchMode(ctx, ts, list, tasks.ModeExecution, a.now())
		return err
	}
}

// scanStatus turns the indexer's scan progress into the dashboard's status
// line, sending only when the shown percentage changes.
type scanStatus struct {
	mu   sync.Mutex
	last int
}

func (s *scanStatus) report(p *tea.Program, pr index.ScanProgress) {
	if p == nil || pr.Bytes <= 0 {
		return
	}
	pct := int(100 * pr.BytesDone / pr.Bytes)
	s.mu.Lock()
	defer s.mu.Unlock()
	if pct == s.last {
		return
	}
	s.last = pct
	p.Send(tui.Status(fmt.Sprintf("reading logs %d%%", pct)))
}

// looked is where agents' logs are looked for, as the empty dashboard
// says it.
func (a *app) looked() []string {
	var out []string
	for _, r := range a.agentRoots() {
		l := termstyle.Pad(r.Agent.String(), 9) + projectname.Tilde(r.Path, a.env.Home)
		if !r.Exists {
			l += "  (not there)"
		}
		out = append(out, l)
	}
	return out
}
