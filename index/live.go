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
	w, err := tail.NewWatcher(ix.names)
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

	// report says what went wrong in a round and goes on, unless the store
	// is gone or cannot be written: nothing could be kept any more, so Run
	// ends with it.
	report := func(prefix string, err error) error {
		switch {
		case err == nil || ctx.Err() != nil:
			return nil
		case tally.StoreUnusable(err):
			return err
		}
		ix.diag(tally.Diagnostic{Msg: prefix + err.Error()})
		return nil
	}
	scan := func() error {
		_, err := ix.Scan(ctx)
		return report("scan: ", err)
	}
	if err := scan(); err != nil {
		return err
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
	rc := newRechecks(ctx)
	poll := time.NewTicker(every)
	defer poll.Stop()
	stall := time.NewTimer(time.Hour)
	defer stall.Stop()
	for {
		stall.Stop()
		if next := ix.nextDue(); !next.IsZero() {
			stall.Reset(max(next.Sub(ix.o.Now()), 0))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-stall.C:
			ix.publishDue(ctx)
		case _, ok := <-watch:
			if !ok {
				watch = nil // the store closed: the poll goes on
				continue
			}
			if mark, err = ix.publishExternal(ctx, mark); report("store: ", err) != nil {
				return err
			}
		case <-poll.C:
			if mark, err = ix.publishExternal(ctx, mark); report("store: ", err) != nil {
				return err
			}
		case <-tick.C:
			if err := scan(); err != nil {
				return err
			}
			ix.forgetEnded()
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
			dbs, err := ix.syncPaths(ctx, paths)
			if report("", err) != nil {
				return err
			}
			for _, db := range dbs {
				rc.start(db)
			}
		case r := <-rc.due:
			if _, err := ix.syncPaths(ctx, map[string]bool{r.path: true}); report("", err) != nil {
				return err
			}
			rc.next(r)
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

// syncPaths folds the files notifications named, and returns the
// databases among them. A path no adapter claims (a new directory, a
// sidecar file) is ignored here: new directories are watched by the
// Watcher, and their files arrive as their own events.
func (ix *Indexer) syncPaths(ctx context.Context, paths map[string]bool) (dbs []string, err error) {
	ix.round.Lock()
	defer ix.round.Unlock()
	if err := ix.load(ctx); err != nil {
		return nil, err
	}
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
				if _, err := stat(f, p); err != nil {
					continue
				}
				e = ix.newEntry(f)
			}
		}
		if e.found.Info.Layout == tally.LayoutDatabase && !queued[e] {
			dbs = append(dbs, p)
		}
		if e.busy {
			continue // a read an earlier round stopped waiting for holds it
		}
		j, ok := ix.check(e)
		if !ok {
			if _, err := stat(e.found, e.st.Path); errors.Is(err, fs.ErrNotExist) {
				gone = append(gone, e.st.Path)
			}
			continue
		}
		if !queued[e] { // a database and its -wal in one burst: one job
			queued[e] = true
			work = append(work, j)
		}
	}
	if len(work) == 0 && len(gone) == 0 {
		return dbs, nil
	}
	_, err = ix.process(ctx, work, gone)
	return dbs, err
}

// recheckAfter are the delays after a notification for a database at
// which it is checked again. SQLite writes a commit to the -wal, which is
// what notifications name, and readers see it only once the wal-index
// header in -shm says so, a moment later and with nothing to announce it:
// a read right after the notification may see the database as it was. A
// check costs a stat; the database is read again only if its version
// moved. The catch-up scan is the safety net past the last delay.
var recheckAfter = [...]time.Duration{100 * time.Millisecond, time.Second}

// rechecks schedules those checks; Run owns it.
type rechecks struct {
	ctx context.Context
	due chan recheck
	// pending are the databases with a check to come.
	pending map[string]bool
}

type recheck struct {
	path string
	n    int // the index of its delay in recheckAfter
}

func newRechecks(ctx context.Context) *rechecks {
	return &rechecks{ctx: ctx, due: make(chan recheck), pending: make(map[string]bool)}
}

// start schedules the checks of a database a notification named, unless
// they are under way.
func (rc *rechecks) start(path string) {
	if !rc.pending[path] {
		rc.pending[path] = true
		rc.after(recheck{path: path})
	}
}

// next schedules the check after r, if there is one.
func (rc *rechecks) next(r recheck) {
	if r.n+1 == len(recheckAfter) {
		delete(rc.pending, r.path)
		return
	}
	rc.after(recheck{path: r.path, n: r.n + 1})
}

func (rc *rechecks) after(r recheck) {
	time.AfterFunc(recheckAfter[r.n], func() {
		select {
		case rc.due <- r:
		case <-rc.ctx.Done():
		}
	})
}

// publishExternal publishes the records other processes committed since
// mark — sessions no log file of this indexer holds, and those it holds
// whose stored record now says otherwise than it last published (a
// hook's needs-input mark, or its end) — and returns the new mark.
func (ix *Indexer) publishExternal(ctx context.Context, mark int64) (int64, error) {
	recs, next, err := ix.o.Store.Changed(ctx, mark)
	if err != nil {
		return mark, err
	}
	ix.round.Lock()
	defer ix.round.Unlock()
	for _, rec := range recs {
		if main := ix.sessionOfList(ctx, rec); main != nil {
			// A session's Tally list changed: the session is committed
			// again with it, and the list is no session of its own.
			ix.drop = append(ix.drop, rec.ID)
			if err := ix.commit(ctx, map[string]*entry{main.st.Path: main}, nil); err != nil {
				return mark, err
			}
			continue
		}
		if len(ix.bySess[rec.ID]) == 0 {
			ix.broker.Publish(Change{Kind: SessionUpdated, ID: rec.ID, Record: rec})
			continue
		}
		if s, ok := ix.shown[rec.ID]; ok && (s.sig != rec.Signal || !s.last.Equal(rec.LastActivity) || s.requests != shownOf(&rec).requests) {
			ix.publish(Change{Kind: SessionUpdated, ID: rec.ID, Record: rec})
		}
	}
	return next, nil
}
