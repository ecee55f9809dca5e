package index

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tail"
)

// Scan walks every agent home once and folds whatever changed since the
// saved offsets.
func (ix *Indexer) Scan(ctx context.Context) (Summary, error) {
	ix.round.Lock()
	defer ix.round.Unlock()
	start := time.Now()
	if err := ix.load(ctx); err != nil {
		return Summary{}, err
	}
	w := tail.Walk(ix.o.Adapters, ix.names, ix.addWatch)
	ix.reportUnreadable(w.Unreadable)
	var work []job
	seen := make(map[string]bool, len(w.Found))
	for _, f := range w.Found {
		path := f.Info.Path
		if seen[path] {
			continue // a database and its -wal name the same file
		}
		seen[path] = true
		e := ix.files[path]
		if e == nil {
			e = ix.newEntry(f)
		}
		if e.busy {
			continue // a read an earlier round stopped waiting for holds it
		}
		e.found = f
		if j, ok := ix.check(e); ok {
			work = append(work, j)
		}
	}
	var gone []string
	for path, e := range ix.files {
		if e.busy {
			continue
		}
		base := path
		if e.st.Database != "" {
			base = e.st.Database
		}
		// A file in a directory the walk could not read is not gone:
		// it is kept as it was until the directory can be read again.
		if !seen[base] && w.Covers(e.found.Root, base) {
			gone = append(gone, path)
		}
	}
	sum, err := ix.process(ctx, work, gone)
	sum.Unchanged = len(seen) - len(work)
	n, cerr := ix.sessionCount(ctx)
	sum.Sessions = n
	sum.Elapsed = time.Since(start)
	return sum, errors.Join(w.Err, err, cerr)
}

// sessionCount counts the sessions the index holds, not the session ids
// of its files: files that said nothing make no session (Record.Empty).
// Such a session has no time, since a record's last activity is its
// files' newest; so a session whose files all lack one is asked of the
// store, and every other session is counted as it is.
func (ix *Indexer) sessionCount(ctx context.Context) (int, error) {
	n := 0
	for id, paths := range ix.bySess {
		timed := false
		for p := range paths {
			if e := ix.files[p]; e != nil && !e.st.LastAt.IsZero() {
				timed = true
				break
			}
		}
		if !timed {
			if ctx.Err() != nil {
				return n, nil // the scan was stopped; it says so itself
			}
			was, err := ix.stored(ctx, id)
			if err != nil {
				return n, err
			}
			timed = was
		}
		if timed {
			n++
		}
	}
	return n, nil
}

type job struct {
	e    *entry
	file tail.File
}

func (ix *Indexer) check(e *entry) (job, bool) {
	f, err := stat(e.found, e.st.Path)
	if err != nil || f == e.failed {
		return job{}, false
	}
	return job{e: e, file: f}, tail.Changed(e.st, f, e.found.Info.Layout.Rewritten())
}

// stat reads what tells whether the file at path, which found names,
// changed: for a directory (LayoutDirectory), the files in it its adapter
// claims as the directory's.
func stat(found tail.Found, path string) (tail.File, error) {
	if found.Info.Layout != tally.LayoutDirectory {
		return tail.Stat(path, found.Info.Layout.Rewritten())
	}
	return tail.StatDir(path, func(member string) bool {
		fi, ok := found.Adapter.Match(found.Root, member)
		return ok && fi.Path == path
	})
}

// reportUnreadable says which directories a walk could not read, each once
// until it can be read again: a catch-up scan every few seconds must not
// repeat it.
func (ix *Indexer) reportUnreadable(errs []error) {
	now := make(map[string]bool, len(errs))
	for _, err := range errs {
		dir, why := "", err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			dir, why = pe.Path, pe.Err.Error()
		}
		now[dir] = true
		if !ix.unreadable[dir] {
			ix.diag(tally.Diagnostic{Path: dir, Msg: "cannot read this directory (" + why + "): the sessions in it are not followed, and those already indexed are kept as they were"})
		}
	}
	ix.unreadable = now
}
