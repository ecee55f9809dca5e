package index

import "github.com/tallyhq/tally"

// MarkerSink takes the progress markers the indexer read, once they are
// committed: after every round, the markers of that round's commits, in
// the order the files gave them. Committed must not block: the indexer
// calls it from its round, and applying markers (file IO on plans) is
// the sink's own business, on its own goroutine.
type MarkerSink interface {
	Committed([]tally.FoundMarker)
}

// readMarker is a marker as a file gave it: with the list it belongs to, which
// the marker's key names.
type readMarker struct {
	list string
	m    tally.Marker
}

// foundMarkers are the markers of the files of a batch, keyed, with the
// project of their session as the batch's records say.
func foundMarkers(changed map[string]*entry, projects map[string]string) []tally.FoundMarker {
	var out []tally.FoundMarker
	for _, e := range changed {
		if e.st.Session == "" {
			continue
		}
		for _, f := range e.markers {
			out = append(out, tally.FoundMarker{
				Key:     tally.MarkerKey(e.st.Session, f.list, f.m.Offset, f.m.Index),
				Session: e.st.Session, Project: projects[e.st.Session], Marker: f.m,
			})
		}
	}
	return out
}

// handMarkers gives the round's committed markers to the sink.
func (ix *Indexer) handMarkers() {
	if ix.o.Markers != nil && len(ix.committed) > 0 {
		ix.o.Markers.Committed(ix.committed)
	}
	ix.committed = nil
}
