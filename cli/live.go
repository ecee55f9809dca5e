package cli

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/store"
)

// changeBuffer is how many changes may wait for a slow terminal before the
// indexer drops them for this reader (and counts them).
const changeBuffer = 1024

// notifies is what a command tells the person of, besides what it shows.
type notifies uint8

const (
	// notifyNothing: a command that runs once (scan).
	notifyNothing notifies = iota
	// notifyPlans: plan news (a step blocked, a task or the plan
	// complete), when the settings ask for it (the overview, push).
	notifyPlans
	// notifySessions: sessions that need a person, and plan news (watch,
	// the dashboard, serve).
	notifySessions
)

// liveOptions say what a command's live needs of its own.
type liveOptions struct {
	// progress reports the catch-up scan; with bar, a progress bar on a
	// terminal's standard error does.
	progress func(index.ScanProgress)
	bar      bool
	notify   notifies
	// term is where the desktop sink writes the terminal's notification
	// sequence when there is no notify-send (nil: nowhere).
	term io.Writer
	// skipped is told of each sink the person asked for that could not
	// be made ("desktop: …"), with notifySessions; nil counts it among
	// the problems reported at the end (a full-screen command).
	skipped func(string)
	// board is the board's address when the command serves it (tally
	// serve): notifications link to it unless notify.board says another.
	board string
}

// live is the composition root of every command that indexes: the indexer
// over every agent home, the planner that applies the markers it commits
// (and gives the surfaces their view of plans), the notifier the settings
// ask for, and where the problems go. newLive builds it once, whole, and
// nothing changes it after; CatchUp and Run are the ways to go live, the
// same for every command (watch, the overview, the dashboard, serve,
// push), so none goes live without the planner.
type live struct {
	a     *app
	st    store.Store
	ix    *index.Indexer
	plans *planner.Planner
	diags *diagnostics
	// bar draws the catch-up scan's progress, when asked for.
	bar *bar
	// news is the notifier, nil when there is nothing to tell; sessions
	// says it tells of sessions too, not only of plans.
	news     *notify.Notifier
	sessions bool
	// follow starts the notifier following the indexer's changes, once:
	// at the end of CatchUp, or at the start of Run when there was none.
	follow   sync.Once
	sub      *broker.Subscription[index.Change]
	followed chan struct{}
	// board is where notifications link a request to ("": nowhere).
	board string
}

// newLive builds a command's live over st with the settings it runs with.
func (a *app) newLive(ctx context.Context, st store.Store, o liveOptions) (*live, error) {
	cfg, err := a.settings()
	if err != nil {
		return nil, err
	}
	l := &live{a: a, st: st, diags: &diagnostics{}, sessions: o.notify == notifySessions, followed: make(chan struct{}), board: o.board}
	if cfg.Notify.Board != "" {
		l.board = cfg.Notify.Board
	}
	if o.bar {
		l.bar = a.newBar()
		o.progress = l.bar.update
	}
	if o.skipped == nil {
		o.skipped = func(sink string) { l.diags.add(tally.Diagnostic{Msg: "not notifying " + sink}) }
	}
	if l.news, err = a.newNotifier(ctx, cfg, o); err != nil {
		return nil, err
	}
	l.plans = planner.New(planner.Options{Folder: planFolderOf(cfg), Store: st, Now: a.env.Now, OnDiagnostic: l.diags.add, OnEvent: l.planNews})
	l.ix, err = index.New(ctx, index.Options{
		Markers:      l.plans,
		Adapters:     a.adapters(),
		Store:        st,
		Rescan:       a.rescan,
		CommitEvery:  a.commitEvery,
		Detect:       detectRules(cfg),
		Now:          a.env.Now,
		OnProgress:   o.progress,
		OnDiagnostic: l.diags.add,
		SessionLists: sessionLists(st),
	})
	if err != nil {
		l.closeNews()
		return nil, err
	}
	return l, nil
}

// scan brings the store up to date with every agent home once, and
// applies the markers it committed: history's markers are in the plans
// before anything is shown.
func (l *live) scan(ctx context.Context) (index.Summary, error) {
	sum, err := l.ix.Scan(ctx)
	if l.bar != nil {
		l.bar.finish()
	}
	if perr := l.plans.ApplyPending(ctx); perr != nil && ctx.Err() == nil {
		l.diags.add(tally.Diagnostic{Msg: "plans: " + perr.Error()})
	}
	return sum, err
}

// CatchUp is the first half of a live command that shows what the logs
// hold before going live (watch, the overview, serve, push): the scan,
// with the problems it met printed; from then on problems are printed as
// they come (the history already on disk is not news, what follows is),
// and the notifier follows the indexer. A scan that failed is reported
// and the command goes on: the files that failed are retried by the next
// catch-up scan. A store that can keep nothing (gone, read-only) is the
// command's end: CatchUp returns its error, to be said once.
func (l *live) CatchUp(ctx context.Context) error {
	_, err := l.scan(ctx)
	if err != nil && ctx.Err() == nil && tally.StoreUnusable(err) {
		l.diags.flush(l.a.env.Err)
		l.closeNews()
		return err
	}
	if err != nil && ctx.Err() == nil {
		l.diags.add(tally.Diagnostic{Msg: "scan: " + err.Error()})
	}
	l.diags.flush(l.a.env.Err)
	l.diags.printLive(l.a.env.Err)
	l.startFollowing(ctx)
	return nil
}

// Run follows the agents' homes until ctx ends: the indexer (whose first
// round is the catch-up scan, when CatchUp did not run) and the planner
// applying the markers it commits, the notifier following the changes.
func (l *live) Run(ctx context.Context) error {
	l.startFollowing(ctx)
	pctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- l.plans.Run(pctx) }()
	err := l.ix.Run(ctx)
	cancel()
	err = errors.Join(err, <-done)
	l.closeNews()
	return err
}

// follower is a live command following the agents' homes for a terminal
// (watch, the overview, the dashboard).
type follower struct {
	// Changes are the committed changes from when it started following.
	Changes *broker.Subscription[index.Change]
	// Done delivers Run's result if it stops on its own.
	Done   <-chan error
	cancel context.CancelFunc
}

// Follow subscribes to the committed changes and runs l until stop.
func (l *live) Follow(ctx context.Context) *follower {
	changes := l.ix.Subscribe(changeBuffer)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- l.Run(runCtx) }()
	return &follower{Changes: changes, Done: done, cancel: cancel}
}

// stop ends Run and waits for it.
func (f *follower) stop() error {
	f.cancel()
	err := <-f.Done
	f.Changes.Close()
	return err
}

// nowLive tells a test that the command follows the agents' homes: a file
// written from now on is news rather than history.
func (a *app) nowLive() {
	if a.following != nil {
		close(a.following)
	}
}

// sessionLists finds in st the Tally lists of the sessions of the agents
// that tell their MCP servers their session, as sessionList names them.
func sessionLists(st index.TaskLister) index.StoreLists {
	var with []tally.Agent
	for _, d := range agents.All {
		if d.Hooks != nil && d.Hooks.SessionEnv != "" {
			with = append(with, d.Agent)
		}
	}
	return index.StoreLists{Store: st, Agents: with, Name: hook.SessionList}
}
