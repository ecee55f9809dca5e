package index

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/detect"
)

// reading is what the indexer observes of a file while a worker folds it,
// as the fold's Observer: every event the fold applies passes here, from
// whichever reader (line by line, a whole document, a database, a
// directory) and whichever decoder, so nothing is learnt by wrapping a
// decoder (which would hide what else it can do). It keeps the progress
// markers the file gave and, for a file detection follows, detection's
// State.
type reading struct {
	// detect is nil for a file detection does not follow (a list kept as
	// a directory: what it holds now, not a history).
	detect  *watcher
	markers []readMarker
}

var _ tally.Observer = (*reading)(nil)

// observe attaches a reading to st, with detection (resuming from its
// saved State) when watch is set. done must follow.
func (ix *Indexer) observe(st *tally.FileState, list string, watch bool) *reading {
	r := &reading{}
	if watch {
		r.detect = ix.watch(st, list)
	}
	st.Observer = r
	return r
}

// done detaches r from st, saves detection's State in it and returns the
// markers read.
func (r *reading) done(st *tally.FileState) []readMarker {
	st.Observer = nil
	if r.detect != nil {
		r.detect.save(st)
	}
	return r.markers
}

func (r *reading) Observe(f *tally.FileState, ev tally.Event, changed bool) {
	if ev.Kind == tally.EventMarker {
		r.markers = append(r.markers, readMarker{list: ev.List, m: ev.Marker})
	}
	if r.detect != nil {
		r.detect.Observe(f, ev, changed)
	}
}

// Reset forgets what detection folded: the file is folded again from its
// start. The markers read stay: the store records each key once.
func (r *reading) Reset() {
	if r.detect != nil {
		r.detect.Reset()
	}
}

// watcher folds one file's events into detection's State while a worker
// reads the file. The State lives in the file's state (FileState.Detect)
// between reads, saved with the offset it was folded up to, so a restart
// goes on from exactly there.
type watcher struct {
	rules detect.Rules
	// list is the file's own list: a sub-agent's id in a sub-agent's
	// log, "" in the main agent's.
	list string
	st   detect.State
}

// watch makes a watcher of st, resuming from its saved State; a saved
// State that cannot be read starts over.
func (ix *Indexer) watch(st *tally.FileState, list string) *watcher {
	w := &watcher{rules: ix.o.Detect, list: list}
	if len(st.Detect) > 0 && json.Unmarshal(st.Detect, &w.st) != nil {
		w.st = detect.State{}
	}
	return w
}

// save keeps the watcher's State in st.
func (w *watcher) save(st *tally.FileState) {
	b, err := json.Marshal(w.st)
	if err != nil {
		return // a State always marshals; keep what was saved
	}
	st.Detect = b
}

func (w *watcher) Reset() { w.st = detect.State{} }

// Observe turns an event into what detection observes: a tool call, the
// turn signal of the newest line (or, with no signal, that the session is
// alive), and the file's own list after it changed.
func (w *watcher) Observe(f *tally.FileState, ev tally.Event, changed bool) {
	at := ev.At
	if at.IsZero() {
		at = f.LastAt
	}
	switch ev.Kind {
	case tally.EventToolCall:
		w.rules.Observe(&w.st, detect.ToolCall(ev.Call, at))
	case tally.EventMeta:
		if ev.Meta.Stalled {
			w.rules.Observe(&w.st, detect.Stalled(at))
		}
		if o, ok := detect.FromSignal(ev.Meta.Signal, at); ok {
			w.rules.Observe(&w.st, o)
		} else if !ev.At.IsZero() {
			w.rules.Observe(&w.st, detect.Seen(at))
		}
	case tally.EventMarker:
		if changed {
			w.listChanged(f, at)
		}
	case tally.EventSnapshot, tally.EventTaskCreate, tally.EventTaskAssign, tally.EventTaskUpdate, tally.EventTaskResync, tally.EventMerge,
		tally.EventCallFailed, tally.EventCallSucceeded:
		if changed && ev.List == w.list {
			w.listChanged(f, at)
		}
	}
}

func (w *watcher) listChanged(f *tally.FileState, at time.Time) {
	if at.IsZero() {
		return // a list with no time at all: nothing to say since when
	}
	var items []tally.Item
	if l := f.Lists[w.list]; l != nil {
		items = l.Items()
	}
	w.rules.Observe(&w.st, detect.ListChanged(detect.ListOf(items, f.Markers), at))
}

// sum sets what detection says of the session rec is made of, from its
// files' saved States: the main agent's log first, then its sub-agents',
// in path order.
func (ix *Indexer) sum(rec *tally.Record, files []*entry) {
	sort.SliceStable(files, func(i, j int) bool {
		mi, mj := files[i].found.Info.List == "", files[j].found.Info.List == ""
		if mi != mj {
			return mi
		}
		return files[i].st.Path < files[j].st.Path
	})
	states := make([]*detect.State, 0, len(files))
	for _, e := range files {
		var s detect.State
		if len(e.st.Detect) > 0 && json.Unmarshal(e.st.Detect, &s) != nil {
			s = detect.State{}
		}
		states = append(states, &s)
	}
	rec.Flags, rec.StallAt = ix.o.Detect.Sum(states...)
}

// shown is what was last published of a live session. A record another
// process changed is published only when it differs from it: the store's
// copy of a session this indexer holds changes under it when an agent's
// hook marks the session as waiting for its user, or ends the mark, and
// when a request to its user is asked, decided or closed.
type shown struct {
	sig  tally.Signal
	last time.Time
	// requests are the ids and verdicts of the requests it showed.
	requests string
}

// shownOf is what a record shows, to tell another process's change by.
func shownOf(rec *tally.Record) shown {
	var b strings.Builder
	for _, r := range rec.Requests {
		b.WriteString(r.ID + "=" + string(r.Verdict) + ";")
	}
	return shown{sig: rec.Signal, last: rec.LastActivity, requests: b.String()}
}

// publish publishes a committed change and remembers, for a live session,
// what was shown and when the session stalls if nothing new comes. It
// runs under the round lock.
func (ix *Indexer) publish(c Change) {
	if c.Kind == SessionUpdated && ix.o.Now().Sub(c.Record.LastActivity) <= tally.EndedAfter {
		ix.shown[c.ID] = shownOf(&c.Record)
		if at := c.Record.NextChange(ix.o.Now()); !at.IsZero() {
			ix.due[c.ID] = at
		} else {
			delete(ix.due, c.ID)
		}
	} else {
		delete(ix.shown, c.ID)
		delete(ix.due, c.ID)
	}
	ix.broker.Publish(c)
}

// nextDue is the earliest time a live session's flags change by the clock
// (it stalls, its turn end comes to count), zero if none will.
func (ix *Indexer) nextDue() time.Time {
	ix.round.Lock()
	defer ix.round.Unlock()
	var next time.Time
	for _, at := range ix.due {
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// publishDue publishes again, as stored, each session whose stall time,
// or the time its tentative turn end counts (tally.Record.NextChange), has
// come with nothing new: its record is the same, but its flags are not,
// and every reader of the change stream learns it at the moment it
// happens rather than polling.
func (ix *Indexer) publishDue(ctx context.Context) {
	ix.round.Lock()
	defer ix.round.Unlock()
	now := ix.o.Now()
	for id, at := range ix.due {
		if now.Before(at) {
			continue
		}
		delete(ix.due, id)
		rec, err := ix.o.Store.Record(ctx, id)
		if err != nil {
			if ctx.Err() == nil && tally.ErrorCode(err) != tally.CodeNotFound {
				ix.diag(tally.Diagnostic{Msg: "store: " + err.Error()})
			}
			continue
		}
		if rec.StallAt.Equal(at) || (rec.Tentative && rec.LastActivity.Add(tally.TurnGrace).Equal(at)) {
			ix.broker.Publish(Change{Kind: SessionUpdated, ID: id, Record: rec})
			if next := rec.NextChange(now); !next.IsZero() {
				ix.due[id] = next
			}
		}
	}
}

// forgetEnded drops what is remembered of sessions over by the clock, so
// that it follows the live sessions, not history.
func (ix *Indexer) forgetEnded() {
	ix.round.Lock()
	defer ix.round.Unlock()
	now := ix.o.Now()
	for id, s := range ix.shown {
		if now.Sub(s.last) > tally.EndedAfter {
			delete(ix.shown, id)
			delete(ix.due, id)
		}
	}
}
