package index

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tail"
)

// commitFiles bounds how many folded files a scan holds before committing:
// their states are in memory until then, and are encoded all at once.
const commitFiles = 128

type result struct {
	e       *entry
	changed bool
	diags   []tally.Diagnostic
	err     error
	before  tally.Stats
	// parts are the sessions a database holds now, one FileState each.
	parts map[string]*tally.FileState
	// skipped: the round was stopping; the file was not read.
	skipped bool
	// file is the version of the file read.
	file tail.File
	// unreadable is why the file could not be read (it is missing, not
	// allowed, not what its name says): a problem with the input, the
	// other files go on. err is for Tally's own failures.
	unreadable error
	// markers are the progress markers read (partMarkers: a database's,
	// by session).
	markers     []readMarker
	partMarkers map[string][]readMarker
}

// process folds the jobs in parallel and commits the results, together
// with the removal of gone files, in as few transactions as CommitEvery
// allows.
func (ix *Indexer) process(ctx context.Context, work []job, gone []string) (Summary, error) {
	var sum Summary
	prog := ScanProgress{Files: len(work)}
	// Lists kept as directories first, so that the sessions using them
	// find them when they are committed (see linkShared); then big files
	// first: the scan ends when the biggest file ends.
	sort.Slice(work, func(i, j int) bool {
		di, dj := work[i].e.found.Info.Layout == tally.LayoutDirectory, work[j].e.found.Info.Layout == tally.LayoutDirectory
		if di != dj {
			return di
		}
		return work[i].file.Size-work[i].e.st.Offset > work[j].file.Size-work[j].e.st.Offset
	})
	// Every job is queued at once and yields one result, run or skipped,
	// so the coordinator can stop waiting without losing track of one.
	jobs := make(chan job, len(work))
	for _, j := range work {
		prog.Bytes += max(j.file.Size-j.e.st.Offset, 0)
		j.e.busy = true
		jobs <- j
	}
	close(jobs)
	// Buffered so a commit in the coordinator never stalls the workers.
	results := make(chan result, len(work))
	var wg sync.WaitGroup
	for range min(ix.o.Workers, max(len(work), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := ix.readers.Get().(*tail.Reader)
			defer ix.readers.Put(r)
			for j := range jobs {
				if ctx.Err() != nil {
					results <- result{e: j.e, skipped: true}
					continue
				}
				results <- ix.sync(ctx, r, j)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var errs []error
	pending := ix.unsaved
	ix.unsaved = make(map[string]*entry)
	gone = append(gone, ix.unsavedGone...)
	ix.unsavedGone = nil
	lastCommit := time.Now()
	for waiting := true; waiting; {
		select {
		case res, ok := <-results:
			if !ok {
				waiting = false
				continue
			}
			res.e.busy = false
			if res.skipped {
				continue
			}
			ix.tally(res, &sum, &prog, &errs)
			res.e.markers = append(res.e.markers, res.markers...)
			if res.changed {
				pending[res.e.st.Path] = res.e
				if res.e.st.Current {
					ix.lists.index(res.e)
				}
			}
			if res.parts != nil {
				ix.replaceParts(res.e, res.parts, res.partMarkers, pending, &gone)
			}
			if ix.o.OnProgress != nil {
				ix.o.OnProgress(prog)
			}
			if len(pending) > 0 && (time.Since(lastCommit) > ix.o.CommitEvery || len(pending) >= commitFiles) {
				ready, later := ix.settled(pending)
				if err := ix.commit(ctx, ready, nil); err != nil {
					errs = append(errs, err)
				}
				pending = later
				lastCommit = time.Now()
			}
		case <-ctx.Done():
			// Stopping never waits for a read (a file system can hang):
			// the files still held are handed back when their reads end.
			go ix.release(results)
			waiting = false
		}
	}
	for path, e := range ix.unsaved { // a mid-scan commit that failed
		pending[path] = e
	}
	// Files still held (by a read this round stopped waiting for) keep
	// their sessions for a later round.
	ready, later := ix.settled(pending)
	ix.unsaved = later
	if len(ready) > 0 || len(gone) > 0 {
		if err := ix.commit(ctx, ready, gone); err != nil {
			errs = append(errs, err)
		}
	}
	ix.handMarkers()
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	return sum, errors.Join(errs...)
}

// tally adds what one file's read did to the round's summary, progress,
// errors and diagnostics.
func (ix *Indexer) tally(res result, sum *Summary, prog *ScanProgress, errs *[]error) {
	st := res.e.st
	// A file folded again from its start (it shrank or was replaced, or
	// is a document rewritten whole) was read all of it: its counts are
	// what was read, not the difference with what it held before.
	before := res.before
	if st.Stats.Resets != before.Resets {
		sum.Reread++
		before = tally.Stats{}
	} else if res.e.found.Info.Layout.Rewritten() {
		before = tally.Stats{}
	}
	prog.FilesDone++
	prog.BytesDone += st.Stats.Bytes - before.Bytes
	sum.Files++
	sum.Lines += st.Stats.Lines - before.Lines
	sum.Bytes += st.Stats.Bytes - before.Bytes
	sum.Parsed += st.Stats.Parsed - before.Parsed
	sum.Malformed += st.Stats.Malformed - before.Malformed
	if res.err != nil {
		*errs = append(*errs, fmt.Errorf("%s: %w", st.Path, res.err))
	}
	res.e.failed = tail.File{}
	if res.unreadable != nil {
		res.e.failed = res.file
		sum.Unreadable++
		ix.diag(tally.Diagnostic{Path: st.Path, Msg: "cannot be read (" + res.unreadable.Error() + "); it is read again when it changes"})
	}
	if ix.o.OnDiagnostic != nil {
		for _, d := range res.diags {
			ix.o.OnDiagnostic(d)
		}
	}
}

// release takes back, under the round lock, the files of a round that
// stopped waiting for them. What their reads folded is kept to commit with
// the next round, as a failed commit's is.
func (ix *Indexer) release(results <-chan result) {
	for res := range results {
		ix.round.Lock()
		res.e.busy = false
		res.e.markers = append(res.e.markers, res.markers...)
		if res.changed {
			ix.unsaved[res.e.st.Path] = res.e
			if res.e.st.Current {
				ix.lists.index(res.e)
			}
		}
		if res.parts != nil {
			ix.replaceParts(res.e, res.parts, res.partMarkers, ix.unsaved, &ix.unsavedGone)
		}
		ix.round.Unlock()
	}
}

// settled splits pending files into those whose sessions can be committed
// now and those of sessions a worker still holds a file of: a record is
// made of all its files, and a held one is not to be read.
func (ix *Indexer) settled(pending map[string]*entry) (ready, later map[string]*entry) {
	ready, later = make(map[string]*entry), make(map[string]*entry)
	for path, e := range pending {
		if ix.held(e.st.Session) {
			later[path] = e
		} else {
			ready[path] = e
		}
	}
	return ready, later
}

// held tells whether a worker holds a file of the session.
func (ix *Indexer) held(session string) bool {
	for p := range ix.bySess[session] {
		if ix.files[p].busy {
			return true
		}
	}
	return false
}

func (ix *Indexer) sync(ctx context.Context, r *tail.Reader, j job) result {
	e := j.e
	if err := ix.warm(ctx, e); err != nil {
		return result{e: e, err: err}
	}
	e.st.Now = ix.o.Now
	res := result{e: e, before: e.st.Stats, file: j.file}
	info := e.found.Info
	if info.Layout == tally.LayoutDatabase {
		db, ok := e.found.Adapter.(tally.DatabaseReader)
		if !ok {
			res.err = tally.Errorf(tally.CodeInternal, "index", "the %s adapter matched a database it cannot read", e.found.Adapter.Agent())
			return res
		}
		return ix.readDatabase(ctx, j, db, res)
	}
	if info.Layout == tally.LayoutDirectory {
		dr, ok := e.found.Adapter.(tally.DirectoryReader)
		if !ok {
			res.err = tally.Errorf(tally.CodeInternal, "index", "the %s adapter matched a directory it cannot read", e.found.Adapter.Agent())
			return res
		}
		return ix.readDirectory(ctx, j, dr, res)
	}
	lr, ok := e.found.Adapter.(tally.LineReader)
	if !ok {
		res.err = tally.Errorf(tally.CodeInternal, "index", "the %s adapter matched a %s file it cannot read", e.found.Adapter.Agent(), info.Layout)
		return res
	}
	return ix.readLines(r, j, lr, res)
}

// readLines reads a log from its offset on, or a document whole, with
// the file's decoder (e.dec, made by lr when there is none), detection
// watching and the markers collected.
func (ix *Indexer) readLines(r *tail.Reader, j job, lr tally.LineReader, res result) result {
	e, info := j.e, j.e.found.Info
	// Tool calls of sessions over by the clock tell nothing any more: the
	// decoder passes them over unread (a cold scan is mostly history).
	from := ix.o.Now().Add(-tally.EndedAfter)
	window := func(d tally.Decoder) {
		if cw, ok := d.(tally.CallWindow); ok {
			cw.CallsFrom(from)
		}
	}
	newDec := func() (tally.Decoder, error) {
		d, err := lr.NewDecoder(info, e.st.Decoder)
		if err != nil {
			return nil, err
		}
		window(d)
		return d, nil
	}
	if e.dec != nil {
		window(e.dec)
	}
	seen := ix.observe(e.st, info.List, true)
	e.dec, res.changed, res.diags, res.unreadable = r.Sync(e.st, j.file, info.Layout.Rewritten(), e.dec, newDec)
	res.markers = seen.done(e.st)
	// The offset moved even when no list did: save it either way.
	res.changed = res.changed || e.st.Stats.Bytes != res.before.Bytes || e.st.Stats.Resets != res.before.Resets
	// A decoder holds parse buffers as big as the longest line it met:
	// only a session still going keeps one for its next append.
	if ix.o.Now().Sub(e.st.LastAt) > tally.EndedAfter {
		e.dec = nil
	}
	return res
}
