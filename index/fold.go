package index

import (
	"context"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tail"
)

// Fold is one session file brought up to date outside a running Indexer,
// by the Indexer's own read and written, if at all, by its own commit:
// what a hook reads of its session's transcript. Its read is a round's
// (detection watching, the markers the file gives collected, every
// capability of the decoder used); Commit is a round's commit (the
// session's other files merged into its record, detection summed over
// them, the markers recorded pending with the offset they were read up
// to). So a file's state has one writer, whoever asks for the fold.
type Fold struct {
	ix *Indexer
	e  *entry
	// Read is how many bytes this fold read of the file, Size the file's
	// size when it was read.
	Read, Size int64
}

// FoldFile folds found — a file its adapter claimed (tail.Claim) and
// reads line by line or whole — from saved, its state as the store keeps
// it, up to file, the file as tail.Stat saw it. A saved state nil, or one
// its decoder cannot resume from, folds the file from the start. Nothing
// is written; o.Store is read only by Commit.
func FoldFile(o Options, found tail.Found, saved *tally.FileState, file tail.File) (*Fold, error) {
	const op = "index.FoldFile"
	lr, ok := found.Adapter.(tally.LineReader)
	if !ok || found.Info.Layout != tally.LayoutLog && found.Info.Layout != tally.LayoutWhole {
		return nil, tally.Errorf(tally.CodeInvalid, op, "%s is no %s log", found.Info.Path, found.Adapter.Agent())
	}
	ix := newIndexer(o)
	fresh := &tally.FileState{Path: found.Info.Path, Agent: found.Adapter.Agent(), Session: found.Info.Session}
	e := &entry{found: found, st: saved}
	if e.st == nil {
		e.st = fresh
	}
	if dec, err := lr.NewDecoder(found.Info, e.st.Decoder); err == nil {
		e.dec = dec
	} else {
		e.st = fresh // a damaged saved state: folded from the start
	}
	e.st.Now = ix.o.Now
	ix.files[e.st.Path] = e
	ix.link(e.st)
	before := e.st.Offset
	f := &Fold{ix: ix, e: e, Size: file.Size}
	if !tail.Changed(e.st, file, found.Info.Layout.Rewritten()) {
		return f, nil // as saved: a document rewritten whole is not read again
	}
	res := ix.readLines(tail.NewReader(), job{e: e, file: file}, lr, result{e: e, before: e.st.Stats, file: file})
	if res.unreadable != nil {
		return nil, res.unreadable
	}
	e.markers = res.markers
	f.Read = e.st.Offset - before
	if f.Read < 0 {
		f.Read = e.st.Offset // the file was replaced and folded again
	}
	return f, nil
}

// State is the file's state as folded.
func (f *Fold) State() *tally.FileState { return f.e.st }

// Commit saves the fold as a round of the Indexer saves what it read:
// the file's state, its session's record made of it and the session's
// other saved files (Store.SessionFiles), with what detection says of
// them all, and the markers it read, pending, in one transaction.
func (f *Fold) Commit(ctx context.Context) error {
	ix, e := f.ix, f.e
	others, err := ix.o.Store.SessionFiles(ctx, e.st.Session)
	if err != nil {
		return err
	}
	for _, st := range others {
		if st.Path == e.st.Path {
			continue
		}
		path := st.Path
		if st.Database != "" {
			path = st.Database
		}
		found, ok := tail.Claim(ix.o.Adapters, path)
		if !ok {
			found = tail.Found{Info: tally.FileInfo{Path: st.Path, Session: st.Session}}
		}
		ix.files[st.Path] = &entry{found: found, st: st}
		ix.link(st)
	}
	if err := ix.commit(ctx, map[string]*entry{e.st.Path: e}, nil); err != nil {
		return err
	}
	ix.handMarkers()
	return nil
}
