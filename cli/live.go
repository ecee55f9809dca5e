package cli

import (
	"context"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store"
)

// changeBuffer is how many changes may wait for a slow terminal before the
// indexer drops them for this reader (and counts them).
const changeBuffer = 1024

// catchUp is the first half of every live command (watch, the overview,
// serve): it brings the store up to date with every agent home, with a
// progress bar on a terminal, and prints the problems the scan met. From
// then on problems are printed as they come: the history already on disk
// is not news, what follows is. The indexer it returns is ready to Run.
//
// A scan that failed is reported and the command goes on live, as Run does
// with its own scans: the files that failed are retried by the next
// catch-up scan.
func (a *app) catchUp(ctx context.Context, st store.Store) (*index.Indexer, *diagnostics, error) {
	diags := &diagnostics{}
	b := a.newBar()
	ix, err := a.newIndexer(ctx, st, b.update, diags)
	if err != nil {
		return nil, nil, err
	}
	_, err = ix.Scan(ctx)
	b.finish()
	if err != nil && ctx.Err() == nil {
		diags.add(tally.Diagnostic{Msg: "scan: " + err.Error()})
	}
	a.applyPlans(ctx, diags)
	diags.flush(a.env.Err)
	diags.printLive(a.env.Err)
	return ix, diags, nil
}

// nowLive tells a test that the command follows the agents' homes: a file
// written from now on is news rather than history.
func (a *app) nowLive() {
	if a.following != nil {
		close(a.following)
	}
}

// follower is an indexer following the agents' homes for a terminal
// command (watch, the overview).
type follower struct {
	// Changes are the committed changes since the initial scan.
	Changes *broker.Subscription[index.Change]
	// Done delivers the indexer's result if it stops on its own.
	Done   <-chan error
	cancel context.CancelFunc
}

// followLive catches up, then follows the agents' homes until stop.
// caughtUp, when set, runs between the two: what it subscribes to the
// indexer is news from then on.
func (a *app) followLive(ctx context.Context, st store.Store, caughtUp func(*index.Indexer) error) (*follower, error) {
	ix, _, err := a.catchUp(ctx, st)
	if err != nil {
		return nil, err
	}
	if caughtUp != nil {
		if err := caughtUp(ix); err != nil {
			return nil, err
		}
	}
	changes := ix.Subscribe(changeBuffer)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.runLive(runCtx, ix) }()
	a.nowLive()
	return &follower{Changes: changes, Done: done, cancel: cancel}, nil
}

// stop ends the indexer and waits for it.
func (f *follower) stop() error {
	f.cancel()
	err := <-f.Done
	f.Changes.Close()
	return err
}

// followNow is the dashboard's way live: it follows the agents' homes at
// once, the catch-up scan being Run's first round, so the first frame does
// not wait for it; the scan's commits arrive on the change stream like any
// other. Problems are collected in diags: a full-screen program cannot
// print them as they come. Ready is closed once the catch-up scan is done.
// subscribe, when set, runs before the indexer does: what it subscribes
// sees every commit, the catch-up's too.
func (a *app) followNow(ctx context.Context, st store.Store, progress func(index.ScanProgress), diags *diagnostics, subscribe func(*index.Indexer) error) (f *follower, ready <-chan struct{}, err error) {
	ix, err := a.newIndexer(ctx, st, progress, diags)
	if err != nil {
		return nil, nil, err
	}
	if subscribe != nil {
		if err := subscribe(ix); err != nil {
			return nil, nil, err
		}
	}
	changes := ix.Subscribe(changeBuffer)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.runLive(runCtx, ix) }()
	return &follower{Changes: changes, Done: done, cancel: cancel}, ix.Ready(), nil
}
