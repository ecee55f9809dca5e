package index

import (
	"context"
	"errors"
	"time"

	"github.com/tallyhq/tally/tail"
)

// Scan walks every agent home once and folds whatever changed since the
// saved offsets.
func (ix *Indexer) Scan(ctx context.Context) (Summary, error) {
	ix.round.Lock()
	defer ix.round.Unlock()
	start := time.Now()
	found, walked, werr := tail.Walk(ix.o.Adapters, ix.addWatch)
	var work []job
	seen := make(map[string]bool, len(found))
	for _, f := range found {
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
		if !seen[base] && walked[e.found.Root] {
			gone = append(gone, path)
		}
	}
	sum, err := ix.process(ctx, work, gone)
	sum.Elapsed = time.Since(start)
	return sum, errors.Join(werr, err)
}

type job struct {
	e    *entry
	file tail.File
}

func (ix *Indexer) check(e *entry) (job, bool) {
	whole := e.found.Info.Layout.Rewritten()
	f, err := tail.Stat(e.st.Path, whole)
	if err != nil {
		return job{}, false
	}
	return job{e: e, file: f}, tail.Changed(e.st, f, whole)
}
