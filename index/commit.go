package index

import (
	"context"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
)

// ChangeKind says what happened to a session.
type ChangeKind uint8

const (
	SessionUpdated ChangeKind = iota + 1
	SessionRemoved
)

func (k ChangeKind) String() string {
	switch k {
	case SessionUpdated:
		return "session_updated"
	case SessionRemoved:
		return "session_removed"
	}
	return "unknown"
}

// Change is a committed change to one session.
type Change struct {
	Kind   ChangeKind
	ID     string
	Record tally.Record
}

// Subscribe receives every change committed from now on, on the
// subscription's C, until Close. buf bounds the backlog: past it, changes
// are dropped for this subscriber alone and counted (Dropped), so a slow
// reader never holds up the indexer; one that must not miss state
// resynchronises from the store when it sees a drop.
func (ix *Indexer) Subscribe(buf int) *broker.Subscription[Change] {
	return ix.broker.Subscribe(buf)
}

// commit writes the changed files, their sessions' records and removals in
// one transaction, then publishes.
func (ix *Indexer) commit(ctx context.Context, changed map[string]*entry, gone []string) error {
	err := ix.tryCommit(ctx, changed, gone)
	if err != nil {
		// The folded state is ahead of the store: keep it to commit with
		// the next round, or its offsets would say it was saved.
		for path, e := range changed {
			ix.unsaved[path] = e
		}
		ix.unsavedGone = append(ix.unsavedGone, gone...)
	}
	return err
}

func (ix *Indexer) tryCommit(ctx context.Context, changed map[string]*entry, gone []string) error {
	var b tally.Batch
	touched := make(map[string]bool)
	for _, e := range changed {
		if e.st.Session != "" { // a database: its parts carry the sessions
			touched[e.st.Session] = true
		}
	}
	removed := make(map[string]bool, len(gone))
	for _, path := range gone {
		e := ix.files[path]
		if e == nil || removed[path] {
			continue
		}
		if ix.held(e.st.Session) {
			// A read still holds a file of the session: its record is
			// made when the read is over.
			ix.unsavedGone = append(ix.unsavedGone, path)
			continue
		}
		removed[path] = true
		b.RemovedFiles = append(b.RemovedFiles, path)
		if e.st.Session != "" {
			touched[e.st.Session] = true
		}
	}
	ix.linkShared(ctx, changed, touched, removed)
	for _, e := range changed {
		b.Files = append(b.Files, e.st)
	}
	var changes []Change
	projects := make(map[string]string, len(touched))
	for id := range touched {
		var states []*tally.FileState
		var files []*entry
		for p := range ix.bySess[id] {
			if removed[p] {
				continue
			}
			if err := ix.warm(ctx, ix.files[p]); err != nil {
				return err
			}
			states = append(states, ix.files[p].st)
			files = append(files, ix.files[p])
		}
		var rec tally.Record
		if len(states) > 0 {
			rec = tally.Merge(states)
		}
		projects[id] = rec.Project
		if rec.Empty() {
			// Files that said nothing make no session, and the removal of
			// one that was never a session is no news.
			was, err := ix.stored(ctx, id)
			if err != nil {
				return err
			}
			if was {
				b.RemovedSessions = append(b.RemovedSessions, id)
				changes = append(changes, Change{Kind: SessionRemoved, ID: id})
			}
			continue
		}
		ix.sum(&rec, files)
		ix.attachTallyList(ctx, &rec)
		b.Sessions = append(b.Sessions, rec)
	}
	for _, id := range ix.drop {
		b.RemovedSessions = append(b.RemovedSessions, id)
		changes = append(changes, Change{Kind: SessionRemoved, ID: id})
	}
	b.Markers = foundMarkers(changed, projects)
	if err := ix.o.Store.Commit(ctx, b); err != nil {
		return err
	}
	ix.drop = nil
	ix.committed = append(ix.committed, b.Markers...)
	for _, e := range changed {
		e.markers = nil
	}
	// Published as stored: the store may have kept a hook's mark that the
	// session waits for its user over what the logs said.
	for _, rec := range b.Sessions {
		changes = append(changes, Change{Kind: SessionUpdated, ID: rec.ID, Record: rec})
	}
	// Only now, with the store agreeing, does memory forget removed files.
	for path := range removed {
		e := ix.files[path]
		delete(ix.files, path)
		ix.lists.unindex(e)
		if m := ix.bySess[e.st.Session]; m != nil {
			delete(m, path)
			if len(m) == 0 {
				delete(ix.bySess, e.st.Session)
			}
		}
	}
	for _, c := range changes {
		ix.publish(c)
	}
	for id := range touched {
		for p := range ix.bySess[id] {
			ix.cool(ix.files[p])
		}
	}
	for _, e := range changed {
		if ix.files[e.st.Path] == e {
			ix.cool(e) // a database's own state
		}
	}
	return nil
}

// stored tells whether the store holds a record of session id.
func (ix *Indexer) stored(ctx context.Context, id string) (bool, error) {
	rec, err := ix.o.Store.Record(ctx, id)
	switch tally.ErrorCode(err) {
	case tally.CodeNotFound, tally.CodeConflict, tally.CodeInvalid:
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return rec.ID == id, nil // not another session that id is a prefix of
}
