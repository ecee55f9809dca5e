package index

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/tallyhq/tally"
)

// readDatabase reads a database whole and folds each session it holds
// from scratch.
func (ix *Indexer) readDatabase(ctx context.Context, j job, db tally.DatabaseReader, res result) result {
	e := j.e
	sessions, diags, err := db.ReadDatabase(ctx, e.st.Path)
	if err != nil {
		res.unreadable = err
		return res
	}
	// The file is read whole each time, so its bad rows are those of this
	// read: the count is set, not added to earlier reads', and all of it
	// goes to this scan's summary, as all of diags goes to OnDiagnostic.
	res.diags = diags
	e.st.Stats.Malformed = int64(len(diags))
	res.before.Malformed = 0
	res.parts = make(map[string]*tally.FileState, len(sessions))
	res.partMarkers = make(map[string][]readMarker)
	for id, events := range sessions {
		st := &tally.FileState{Path: tally.PartPath(e.st.Path, id), Database: e.st.Path, Agent: e.st.Agent, Session: id, Identity: j.file.Identity, Now: ix.o.Now}
		seen := ix.observe(st, "", true)
		for _, ev := range events {
			st.Apply(ev)
		}
		res.partMarkers[id] = seen.done(st)
		if d, ok := st.TakeRepairs(0); ok {
			d.Path = e.st.Path // the file on disk, for the session named in the message
			d.Msg = "session " + id + ": " + d.Msg
			res.diags = append(res.diags, d)
		}
		st.Stats.Lines = int64(len(events))
		res.parts[id] = st
	}
	e.st.Identity = j.file.Identity
	e.st.Offset = j.file.Size
	res.changed = true
	return res
}

// replaceParts installs the sessions a database holds now: new
// and changed ones are committed, with the markers they hold (the store
// records a key once, so markers read again are no news), vanished ones
// removed.
func (ix *Indexer) replaceParts(parent *entry, parts map[string]*tally.FileState, partMarkers map[string][]readMarker, pending map[string]*entry, gone *[]string) {
	for path, e := range ix.files {
		if e.st.Database == parent.st.Path && parts[e.st.Session] == nil {
			*gone = append(*gone, path)
		}
	}
	for _, st := range parts {
		old := ix.files[st.Path]
		if old != nil && sameState(old.st, st) {
			continue
		}
		e := &entry{found: parent.found, st: st, markers: partMarkers[st.Session]}
		ix.files[st.Path] = e
		ix.link(st)
		pending[st.Path] = e
	}
}

func sameState(a, b *tally.FileState) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
