package index

import (
	"context"

	"github.com/tallyhq/tally"
)

// warm replaces a cold entry's mark with the saved state. A state the
// store does not have (or has damaged) starts over: the file is read again
// from offset 0.
func (ix *Indexer) warm(ctx context.Context, e *entry) error {
	if !e.cold {
		return nil
	}
	st, err := ix.o.Store.File(ctx, e.st.Path)
	switch {
	case err == nil:
	case tally.ErrorCode(err) == tally.CodeNotFound:
		st = &tally.FileState{Path: e.st.Path, Agent: e.st.Agent, Session: e.st.Session}
	default:
		return err
	}
	e.st, e.cold = st, false
	return nil
}

// cool drops an entry's lists from memory once its session is over: memory
// then follows the sessions still going, not the length of history.
func (ix *Indexer) cool(e *entry) {
	if !e.cold && ix.o.Now().Sub(e.st.LastAt) > tally.EndedAfter {
		e.st, e.cold, e.dec = e.st.Mark().Cold(), true, nil
	}
}
