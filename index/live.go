package index

import (
	"context"
	"errors"
	"io/fs"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tail"
)

// Run scans, then follows the agents' homes live until ctx ends: changes
// named by file-system notifications are folded at once, and a catch-up
// scan every Rescan finds whatever a notification missed.
func (ix *Indexer) Run(ctx context.Context) error {
	w, err := tail.NewWatcher()
	if err != nil {
		return err
	}
	w.Skip = func(dir string) bool { return tail.Skipped(ix.o.Adapters, dir) }
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(wctx) }()
	ix.round.Lock()
	ix.w = w
	ix.round.Unlock()
	defer func() {
		cancel()
		wg.Wait()
		ix.round.Lock()
		ix.w = nil
		ix.round.Unlock()
	}()

	scan := func() error {
		_, err := ix.Scan(ctx)
		return err
	}
	if err := scan(); err != nil && ctx.Err() == nil {
		ix.diag(tally.Diagnostic{Msg: "scan: " + err.Error()})
	}
	mark := ix.mark
	ix.readyOnce.Do(func() { close(ix.ready) })
	tick := time.NewTicker(ix.o.Rescan)
	defer tick.Stop()
	every := ix.o.PollStore
	var watch <-chan struct{}
	if w, ok := ix.o.Store.(Watcher); ok {
		watch = w.Watch(ctx)
		every = max(every, watchedPoll)
	}
	poll := time.NewTicker(every)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-watch:
			if !ok {
				watch = nil // the store closed: the poll goes on
				continue
			}
			mark = ix.publishExternal(ctx, mark)
		case <-poll.C:
			mark = ix.publishExternal(ctx, mark)
		case <-tick.C:
			if err := scan(); err != nil && ctx.Err() == nil {
				ix.diag(tally.Diagnostic{Msg: "scan: " + err.Error()})
			}
		case err := <-w.Errors:
			ix.diag(tally.Diagnostic{Msg: "watch: " + err.Error() + " (the periodic scan covers it)"})
		case p := <-w.Changed:
			paths := map[string]bool{p: true}
			// Coalesce a burst (several lines appended at once) into one round.
			for drained := false; !drained; {
				select {
				case p := <-w.Changed:
					paths[p] = true
				default:
					drained = true
				}
			}
			if err := ix.syncPaths(ctx, paths); err != nil && ctx.Err() == nil {
				ix.diag(tally.Diagnostic{Msg: err.Error()})
			}
		}
	}
}

// addWatch watches a directory Scan walks through; it runs under the
// round lock.
func (ix *Indexer) addWatch(dir string) {
	if ix.w == nil {
		return
	}
	if err := ix.w.Add(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		ix.diag(tally.Diagnostic{Path: dir, Msg: "watch: " + err.Error()})
	}
}

// syncPaths folds the files notifications named. A path no adapter claims
// (a new directory, a sidecar file) is ignored here: new directories are
// watched by the Watcher, and their files arrive as their own events.
func (ix *Indexer) syncPaths(ctx context.Context, paths map[string]bool) error {
	ix.round.Lock()
	defer ix.round.Unlock()
	var work []job
	var gone []string
	queued := make(map[*entry]bool)
	for p := range paths {
		e := ix.files[p]
		if e == nil {
			f, ok := tail.Claim(ix.o.Adapters, p)
			if !ok {
				continue
			}
			// A database's -wal names the database: the entry is its.
			p = f.Info.Path
			if e = ix.files[p]; e == nil {
				if _, err := tail.Stat(p, f.Info.Layout.Rewritten()); err != nil {
					continue
				}
				e = ix.newEntry(f)
			}
		}
		if e.busy {
			continue // a read an earlier round stopped waiting for holds it
		}
		j, ok := ix.check(e)
		if !ok {
			if _, err := tail.Stat(p, false); errors.Is(err, fs.ErrNotExist) {
				gone = append(gone, p)
			}
			continue
		}
		if !queued[e] { // a database and its -wal in one burst: one job
			queued[e] = true
			work = append(work, j)
		}
	}
	if len(work) == 0 && len(gone) == 0 {
		return nil
	}
	_, err := ix.process(ctx, work, gone)
	return err
}

// publishExternal publishes the records other processes committed since
// mark — sessions no log file of this indexer holds — and returns the new
// mark.
func (ix *Indexer) publishExternal(ctx context.Context, mark int64) int64 {
	recs, next, err := ix.o.Store.Changed(ctx, mark)
	if err != nil {
		if ctx.Err() == nil {
			ix.diag(tally.Diagnostic{Msg: "store: " + err.Error()})
		}
		return mark
	}
	ix.round.Lock()
	defer ix.round.Unlock()
	for _, rec := range recs {
		if len(ix.bySess[rec.ID]) == 0 {
			ix.broker.Publish(Change{Kind: SessionUpdated, ID: rec.ID, Record: rec})
		}
	}
	return next
}
