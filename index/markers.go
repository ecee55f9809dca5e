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

// tap passes a decoder's events through and keeps the progress markers
// among them. It leaves the decoder's optional parts (Recenter,
// ParseCounter) working as they were.
type tap struct {
	tally.Decoder
	see     func(tally.Event) // t.observe, bound once so Line allocates nothing
	emit    func(tally.Event)
	markers []readMarker
}

func newTap(d tally.Decoder) *tap {
	t := &tap{Decoder: d}
	t.see = t.observe
	return t
}

func (t *tap) Line(line []byte, off int64, emit func(tally.Event)) error {
	t.emit = emit
	err := t.Decoder.Line(line, off, t.see)
	t.emit = nil
	return err
}

func (t *tap) observe(ev tally.Event) {
	if ev.Kind == tally.EventMarker {
		t.markers = append(t.markers, readMarker{list: ev.List, m: ev.Marker})
	}
	t.emit(ev)
}

// take returns the markers seen since the last take.
func (t *tap) take() []readMarker {
	f := t.markers
	t.markers = nil
	return f
}

// Recent passes the newest lines to the decoder if it reads them; a
// decoder that does not is done at once, as if it had not been asked.
func (t *tap) Recent(line []byte, emit func(tally.Event)) bool {
	if rc, ok := t.Decoder.(tally.Recenter); ok {
		return rc.Recent(line, emit)
	}
	return true
}

// Parsed is the decoder's count of lines parsed, 0 if it keeps none.
func (t *tap) Parsed() int64 {
	if pc, ok := t.Decoder.(tally.ParseCounter); ok {
		return pc.Parsed()
	}
	return 0
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
