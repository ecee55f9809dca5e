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
// reads: a list window of a terminal up to this many lines tall. The rest
// are read once the first frame is drawn.
const firstPage = 64

// termEnv are the variables that decide a terminal's colours.
var termEnv = []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "TMUX"}

func (a *app) tuiCommand() *cobra.Command {
	var settings settingFlags
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "The live dashboard of every session (what tally runs on a terminal)",
		Long: `Open the full-screen dashboard: every agent session on the machine, active
ones first, and the Task Panel of the one in hand, live. Press ? in it for
the keys; q or Ctrl-C quits.

While it runs it notifies as 'tally watch' does (the notify section of the
settings): on the desktop through notify-send, or else with the terminal's
own notification sequence.

A bare 'tally' opens it too when standard output is a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !a.env.OutTTY {
				return tally.Errorf(tally.CodeInvalid, "tui", "the dashboard needs a terminal; use 'tally watch' or 'tally sessions' in a pipe")
			}
			if _, err := a.useSettings(settings); err != nil {
				return err
			}
			return runTUI(cmd.Context(), a)
		},
	}
	addSettingFlags(cmd, &settings)
	return cmd
}

// runTUI shows the dashboard. Its first frame waits only for the store's
// newest sessions: the dashboard's live is built at once (that reads the
// store's change mark, nothing more), and started once that frame is on
// the terminal; its catch-up arrives on the change stream (the one the
// web board reads) like any later change, the title saying how far it
// got.
func runTUI(ctx context.Context, a *app) error {
	if _, err := a.settings(); err != nil {
		return err
	}
	st, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	first, err := st.Records(ctx, tally.SessionFilter{Limit: firstPage})
	if err != nil {
		return err
	}
	var env []string
	for _, k := range termEnv {
		if v := a.env.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	lv := &liveTUI{a: a}
	status := &scanStatus{}
	// The program exists before the live is started, and after it is
	// built: the scan's progress and the terminal's notifications reach
	// it once it does.
	lv.l, err = a.newLive(ctx, st, liveOptions{
		progress: func(pr index.ScanProgress) { status.report(lv.p, pr) },
		notify:   notifySessions, term: writerFunc(func(b []byte) (int, error) { return tui.Printer(lv.p).Write(b) }),
	})
	if err != nil {
		return err
	}
	lv.ctx, lv.stop = context.WithCancel(ctx)
	defer lv.stop()
	lv.p = tui.Program(ctx, tui.Options{
		Now: a.env.Now, Home: a.env.Home, Color: a.env.color(), Records: first, Status: "reading logs",
		Load: func(ctx context.Context, limit int) ([]tally.Record, error) {
			return st.Records(ctx, tally.SessionFilter{Limit: limit})
		},
		Approve: a.approver(st),
		Decide: func(ctx context.Context, session string, v tally.Verdict) (tally.Request, error) {
			return a.decideOpen(ctx, st, session, v, "", "tally tui")
		},
		Looked:    a.looked(),
		Headliner: newPlanHeadliner(lv.ctx, lv.l.plans),
	}, tui.Terminal{In: a.env.In, Out: a.env.Out, Environ: env, Drawn: lv.start})
	err = tui.Run(ctx, lv.p)
	if ixErr := lv.end(); err == nil && ctx.Err() == nil {
		err = ixErr
	}
	lv.l.diags.flush(a.env.Err)
	return err
}

// writerFunc is a function as an io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// liveTUI is the dashboard's live, run once its first frame is drawn.
type liveTUI struct {
	a *app
	l *live
	p *tea.Program
	// ctx ends when the dashboard does: nothing starts after that.
	ctx  context.Context
	stop context.CancelFunc

	mu sync.Mutex
	f  *follower
	// fed is done when Feed and the readiness watch have returned.
	fed sync.WaitGroup
}

// start runs the live: the first round of its Run is the catch-up scan.
// The notifier follows the indexer from before that scan: what the scan
// reads happened before the notifier started, so it is history to it,
// not news.
func (l *liveTUI) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ctx.Err() != nil {
		return
	}
	f := l.l.Follow(l.ctx)
	l.f = f
	l.fed.Go(func() { tui.Feed(l.ctx, l.p.Send, f.Changes) })
	l.fed.Go(func() {
		select {
		case <-l.l.ix.Ready():
			l.p.Send(tui.Status(""))
			l.a.nowLive()
		case <-l.ctx.Done():
		}
	})
}

// end stops what start started, once the dashboard has returned, and
// says why the live stopped.
func (l *liveTUI) end() error {
	l.stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		l.l.closeNews()
		return nil
	}
	l.fed.Wait()
	return l.f.stop()
}

// approver is what A calls: tasks.SwitchMode, as `tally tasks approve`.
func (a *app) approver(st tasks.Updater) func(context.Context, string) error {
	return func(ctx context.Context, list string) error {
		_, err := tasks.SwitchMode(ctx, st, list, tasks.ModeExecution, a.now())
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
