package cli

import (
	"context"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
)

// changeBuffer is how many changes may wait for a slow terminal before the
// indexer drops them for this reader (and counts them).
const changeBuffer = 1024

// follower runs the indexer live for watch and the overview.
type follower struct {
	// Changes are the committed changes since the initial scan.
	Changes <-chan index.Change
	// Done delivers the indexer's result if it stops on its own.
	Done   <-chan error
	cancel context.CancelFunc
	unsub  func()
}

// follow brings the store up to date (with a progress bar on a terminal),
// then follows the agents' homes. Changes start after the initial scan:
// the history already on disk is not news. Problems with the input are
// printed on stderr as they are found.
func (a *app) follow(ctx context.Context, st tally.Store) (*follower, error) {
	diags := &diagnostics{}
	b := a.newBar()
	ix, err := a.newIndexer(ctx, st, b.update, diags)
	if err != nil {
		return nil, err
	}
	_, err = ix.Scan(ctx)
	b.finish()
	diags.flush(a.env.Err)
	if err != nil && ctx.Err() == nil {
		// As Run does with its own scans: report and go on live, the
		// files that failed are retried by the next catch-up scan.
		diags.add(tally.Diagnostic{Msg: "scan: " + err.Error()})
	}
	diags.mu.Lock()
	diags.live, diags.shown, diags.total = a.env.Err, nil, 0
	diags.mu.Unlock()

	changes, unsub := ix.Subscribe(changeBuffer)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ix.Run(runCtx) }()
	if a.following != nil {
		close(a.following)
	}
	return &follower{Changes: changes, Done: done, cancel: cancel, unsub: unsub}, nil
}

// stop ends the indexer and waits for it.
func (f *follower) stop() error {
	f.cancel()
	err := <-f.Done
	f.unsub()
	return err
}
