package tui

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/projectname"
)

// SortOrder is how the session list is ordered.
type SortOrder uint8

const (
	// SortActive: sessions that have not ended first, then the rest, each
	// part most recent first.
	SortActive SortOrder = iota
	// SortRecent: most recent activity first, ended or not.
	SortRecent
	// SortProject: by project, then most recent first.
	SortProject
	numSorts
)

var sortNames = [...]string{SortActive: "active first", SortRecent: "most recent", SortProject: "by project"}

func (o SortOrder) String() string {
	if o < numSorts {
		return sortNames[o]
	}
	return "unknown"
}

// Filter narrows the list. Zero fields select everything.
type Filter struct {
	// Text: every word must occur (ignoring case) in the session's agent,
	// project, title, current step or id.
	Text    string
	Agent   tally.Agent
	Project string
}

func (f Filter) empty() bool { return f == Filter{} }

// entry is one session as the model keeps it: its record, and its
// activity as last derived (sorting needs it for every session; the full
// Session is derived only for the rows on screen).
type entry struct {
	rec tally.Record
	act tally.Activity
	// haystack is what the text filter searches, lower-cased once.
	haystack string
	// live: the entry came from the change stream, so a store load that
	// started before it does not replace it.
	live bool
}

func newEntry(r tally.Record, now time.Time, live bool) *entry {
	e := &entry{rec: r, live: live}
	e.act = tally.DeriveActivity(r.Signal, r.LastActivity, now)
	hay := []string{string(r.Agent), r.Project, r.Title, r.ID, r.Machine, r.User}
	for _, it := range r.Lists[""] {
		if it.Status == tally.StatusInProgress {
			hay = append(hay, it.Title, it.ActiveForm)
		}
	}
	e.haystack = strings.ToLower(strings.Join(hay, "\x00"))
	return e
}

// roster holds every session the model knows and the order they are shown
// in. It is the model's only bulk state: one entry per session, and the
// filtered order, rebuilt only when sessions, filter, sort or activities
// change.
type roster struct {
	byID map[string]*entry
	// gone holds sessions the stream removed: a store load that read them
	// before their removal does not bring them back.
	gone  map[string]bool
	order []*entry
	// active counts the sessions that have not ended.
	active int
	filter Filter
	sort   SortOrder
	dirty  bool
	// gen counts the changes to what the list shows: a frame drawn at
	// the same gen (and the same size, selection and second) is the same.
	gen uint64
	// transition is the next time the clock alone changes a session's
	// activity (zero: never).
	transition time.Time
	// ids are every known session's id, sorted, for shortID; nil when the
	// set of sessions changed since.
	ids []string
	// names tells every known session's project from the others, as the
	// other surfaces do; nil when the set of sessions changed since.
	names *projectname.Names
	// distinct caches names.DistinctWidth by its bounds.
	distinct map[[2]int]int
}

// projectNames names the projects of every known session, each with as
// many trailing parts as tell it from the others.
func (r *roster) projectNames(home string) projectname.Names {
	if r.names == nil {
		paths := make([]string, 0, len(r.byID))
		for _, e := range r.byID {
			paths = append(paths, e.rec.Project)
		}
		n := projectname.New(home, paths...)
		r.names, r.distinct = &n, make(map[[2]int]int)
	}
	return *r.names
}

// projectWidth is the fewest cells, from least up to most, in which the
// names projectNames last gave all differ.
func (r *roster) projectWidth(least, most int) int {
	if r.names == nil {
		return least
	}
	key := [2]int{least, most}
	w, ok := r.distinct[key]
	if !ok {
		w = r.names.DistinctWidth(least, most)
		r.distinct[key] = w
	}
	return w
}

func newRoster() *roster {
	return &roster{byID: make(map[string]*entry), gone: make(map[string]bool), dirty: true}
}

// load adds records read from the store. A session the stream already
// updated or removed keeps what the stream said.
func (r *roster) load(recs []tally.Record, now time.Time) {
	for i := range recs {
		id := recs[i].ID
		if r.gone[id] {
			continue
		}
		if e, ok := r.byID[id]; ok && e.live {
			continue
		}
		r.byID[id] = newEntry(recs[i], now, false)
	}
	r.dirty, r.ids, r.names = true, nil, nil
}

// reload replaces everything with a fresh read of the store, after the
// stream lost changes.
func (r *roster) reload(recs []tally.Record, now time.Time) {
	clear(r.byID)
	clear(r.gone)
	r.load(recs, now)
}

// incremental is the most changes update applies in place; past it, the
// order is rebuilt whole.
const incremental = 64

// update applies the stream's changes. A few changes move their sessions
// within the sorted order (a binary search each) instead of sorting every
// session again: a live session's every line is one change.
func (r *roster) update(updated []tally.Record, removed []string, now time.Time) {
	inPlace := !r.dirty && len(updated)+len(removed) <= incremental
	r.gen++
	for i := range updated {
		id := updated[i].ID
		delete(r.gone, id)
		e := newEntry(updated[i], now, true)
		if old := r.byID[id]; old == nil {
			r.ids, r.names = nil, nil
		} else if old.rec.Project != e.rec.Project {
			r.names = nil
		}
		if inPlace {
			r.unplace(r.byID[id])
		}
		r.byID[id] = e
		if inPlace {
			r.place(e)
		}
	}
	for _, id := range removed {
		if inPlace {
			r.unplace(r.byID[id])
		}
		delete(r.byID, id)
		r.gone[id] = true
		r.ids, r.names = nil, nil
	}
	r.dirty = r.dirty || !inPlace && len(updated)+len(removed) > 0
}

// unplace takes e (if any) out of the sorted order.
func (r *roster) unplace(e *entry) {
	if e == nil {
		return
	}
	if e.act != tally.ActivityEnded {
		r.active--
	}
	i, found := slices.BinarySearchFunc(r.order, e, r.compare)
	if found && r.order[i] == e {
		r.order = slices.Delete(r.order, i, i+1)
	}
}

// place puts e into the sorted order if the filter shows it.
func (r *roster) place(e *entry) {
	if e.act != tally.ActivityEnded {
		r.active++
		r.transition = earliest(r.transition, transition(e))
	}
	if !r.match(e, strings.Fields(strings.ToLower(r.filter.Text))) {
		return
	}
	i, _ := slices.BinarySearchFunc(r.order, e, r.compare)
	r.order = slices.Insert(r.order, i, e)
}

// tick re-derives every activity at now; it reports whether one changed.
func (r *roster) tick(now time.Time) bool {
	changed := false
	for _, e := range r.byID {
		if a := tally.DeriveActivity(e.rec.Signal, e.rec.LastActivity, now); a != e.act {
			e.act, changed = a, true
		}
	}
	r.dirty = r.dirty || changed
	r.transition = time.Time{}
	for _, e := range r.byID {
		r.transition = earliest(r.transition, transition(e))
	}
	return changed
}

// transition is when the clock alone next changes e's activity.
func transition(e *entry) time.Time {
	last := e.rec.LastActivity
	switch {
	case e.act == tally.ActivityEnded || last.IsZero():
		return time.Time{}
	case e.act == tally.ActivityWorking:
		return last.Add(tally.IdleAfter + time.Millisecond)
	}
	return last.Add(tally.EndedAfter + time.Millisecond)
}

// earliest is the earlier of two times, a zero time being no time.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// shortID is how the list shows e's id: as tally.ShortName shows a name,
// else as tally.ShortID gives it, among every session known (not only
// those the filter shows, so that a filter never makes an id ambiguous in
// show).
func (r *roster) shortID(e *entry) string {
	if r.ids == nil {
		r.ids = make([]string, 0, len(r.byID))
		for id := range r.byID {
			r.ids = append(r.ids, id)
		}
		slices.Sort(r.ids)
	}
	if e.rec.IDIsName() {
		return tally.ShortName(r.ids, e.rec.ID)
	}
	return tally.ShortID(r.ids, e.rec.ID)
}

func (r *roster) setFilter(f Filter) {
	if f != r.filter {
		r.filter, r.dirty = f, true
	}
}

func (r *roster) setSort(o SortOrder) {
	if o != r.sort {
		r.sort, r.dirty = o, true
	}
}

// rows is the filtered, sorted order, rebuilt when something changed.
func (r *roster) rows() []*entry {
	if !r.dirty {
		return r.order
	}
	r.dirty = false
	r.gen++
	r.order = r.order[:0]
	r.active = 0
	r.transition = time.Time{}
	words := strings.Fields(strings.ToLower(r.filter.Text))
	for _, e := range r.byID {
		if e.act != tally.ActivityEnded {
			r.active++
			r.transition = earliest(r.transition, transition(e))
		}
		if r.match(e, words) {
			r.order = append(r.order, e)
		}
	}
	slices.SortFunc(r.order, r.compare)
	return r.order
}

func (r *roster) match(e *entry, words []string) bool {
	f := &r.filter
	if f.Agent != "" && e.rec.Agent != f.Agent {
		return false
	}
	if f.Project != "" && e.rec.Project != f.Project {
		return false
	}
	for _, w := range words {
		if !strings.Contains(e.haystack, w) {
			return false
		}
	}
	return true
}

func (r *roster) compare(a, b *entry) int {
	switch r.sort {
	case SortActive:
		if c := cmp.Compare(rank(a.act), rank(b.act)); c != 0 {
			return c
		}
	case SortProject:
		if c := cmp.Compare(a.rec.Project, b.rec.Project); c != 0 {
			return c
		}
	case SortRecent, numSorts:
	}
	if c := b.rec.LastActivity.Compare(a.rec.LastActivity); c != 0 {
		return c
	}
	return cmp.Compare(a.rec.ID, b.rec.ID)
}

// rank puts sessions that have not ended before those that have.
func rank(a tally.Activity) int {
	if a == tally.ActivityEnded {
		return 1
	}
	return 0
}

// agents are the agents of the known sessions in the project filtered
// on (every session's when none is), sorted: what `a` cycles. An agent
// with no session there would show none.
func (r *roster) agents() []tally.Agent {
	seen := map[tally.Agent]bool{}
	var out []tally.Agent
	for _, e := range r.byID {
		if r.filter.Project != "" && e.rec.Project != r.filter.Project {
			continue
		}
		if !seen[e.rec.Agent] {
			seen[e.rec.Agent] = true
			out = append(out, e.rec.Agent)
		}
	}
	slices.Sort(out)
	return out
}

// projects are the projects of the known sessions of the agent filtered
// on (every session's when none is), most recently active first: what `p`
// cycles. A project the agent filter hides would show none.
func (r *roster) projects() []string {
	last := map[string]time.Time{}
	for _, e := range r.byID {
		if r.filter.Agent != "" && e.rec.Agent != r.filter.Agent {
			continue
		}
		if p := e.rec.Project; p != "" {
			last[p] = maxTime(last[p], e.rec.LastActivity)
		}
	}
	out := make([]string, 0, len(last))
	for p := range last {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := last[b].Compare(last[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return out
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// next returns the element after cur in all, cycling through "" (none).
func next[T comparable](all []T, cur T) T {
	var zero T
	if cur == zero {
		if len(all) > 0 {
			return all[0]
		}
		return zero
	}
	i := slices.Index(all, cur)
	if i < 0 || i+1 >= len(all) {
		return zero
	}
	return all[i+1]
}
