package notify

import (
	"slices"
	"time"

	"github.com/tallyhq/tally"
)

// maxMembers bounds the sub-agents remembered per session; a session with
// more has the rest's conditions ignored rather than memory grow.
const maxMembers = 64

// tracker decides what is news. It is owned by the notifier's one
// goroutine.
type tracker struct {
	kinds       Kinds
	settle      time.Duration
	maxSessions int
	now         func() time.Time
	// start: conditions and list changes older than this are history.
	start time.Time
	roots map[string]*root
}

// root is a top-level session with its sub-agents rolled up.
type root struct {
	session Session
	own     bool // session came from the session's own update
	lastAt  time.Time
	members map[string]tally.Flags
	// blocked is why each member is blocked, while it is.
	blocked map[string]string
	eps     [len(flagKinds)]episode
	// The session's own list, as last seen.
	listSeen    bool
	done, total int
}

// episode is one condition of one session over time.
type episode struct {
	on        bool
	since     time.Time // when the current (or last) occurrence began
	seenAt    time.Time // the last update that showed it
	clearedAt time.Time // when it was last seen clear after being on
}

func newTracker(o Options) *tracker {
	return &tracker{
		kinds: o.Kinds, settle: o.Settle, maxSessions: o.MaxSessions, now: o.Now,
		start: o.Now(), roots: map[string]*root{},
	}
}

// update takes a session's new state and returns the news in it, most
// urgent first.
func (t *tracker) update(u Update, st *counters) []Event {
	at := u.At
	if at.IsZero() {
		at = t.now()
	}
	id, rootID := u.Session.ID, u.Session.ID
	if u.Session.Parent != "" {
		rootID = u.Session.Parent
	}
	r := t.roots[rootID]
	if r == nil {
		t.makeRoom(st)
		r = &root{members: map[string]tally.Flags{}}
		t.roots[rootID] = r
	}
	switch {
	case u.Session.Parent == "":
		r.session, r.own = u.Session, true
	case !r.own:
		// Until the parent speaks for itself, name it from its sub-agent.
		r.session = Session{ID: rootID, Agent: u.Session.Agent, Project: u.Session.Project}
	}
	if at.After(r.lastAt) {
		r.lastAt = at
	}
	if _, ok := r.members[id]; ok || len(r.members) < maxMembers {
		r.members[id] = u.Flags
		if u.Blocked != "" && u.Flags.Has(tally.FlagBlocked) {
			if r.blocked == nil {
				r.blocked = map[string]string{}
			}
			r.blocked[id] = u.Blocked
		} else {
			delete(r.blocked, id)
		}
	}
	prevDone, prevTotal := r.done, r.total
	if u.Session.Parent == "" {
		r.done, r.total = u.Done, u.Total
	}

	var evs []Event
	rolled, via := r.rollup(rootID)
	for i, fk := range flagKinds {
		on, since := rolled.Has(fk.flag), rolled.Since(fk.flag)
		ep := &r.eps[i]
		if !on {
			if ep.on {
				ep.on, ep.clearedAt = false, at
			}
			continue
		}
		news := false
		switch {
		case ep.on && since.Equal(ep.since):
		case ep.on:
			// Back with a new start while we never saw it clear: it was
			// clear at some point after it was last seen.
			news = since.Sub(ep.seenAt) >= t.settle
			count(!news, &st.repeats)
		case !ep.clearedAt.IsZero():
			news = since.Sub(ep.clearedAt) >= t.settle
			count(!news, &st.repeats)
		default:
			news = !since.Before(t.start)
			count(!news, &st.history)
		}
		ep.on, ep.since, ep.seenAt = true, since, at
		if news {
			e := Event{Kind: fk.kind, Session: r.session, Via: via[i], Since: since, Done: r.done, Total: r.total}
			if fk.flag == tally.FlagBlocked {
				who := via[i]
				if who == "" {
					who = rootID
				}
				e.Reason = r.blocked[who]
			}
			evs = t.emit(evs, st, e)
		}
	}
	if u.Session.Parent == "" {
		evs = t.list(r, u, at, prevDone, prevTotal, evs, st)
	}
	return evs
}

// rollup is the session's conditions rolled up with its sub-agents': each
// on if any has it, since the earliest, and via which sub-agent ("" for
// the session's own). Finishing is the session's own: a sub-agent done
// with its part is not the session done.
func (r *root) rollup(rootID string) (on tally.Flags, via [len(flagKinds)]string) {
	for id, fl := range r.members {
		if fl.Empty() {
			continue
		}
		for i, fk := range flagKinds {
			if !fl.Has(fk.flag) || (fk.flag == tally.FlagFinished && id != rootID) {
				continue
			}
			s, cur := fl.Since(fk.flag), on.Since(fk.flag)
			if !on.Has(fk.flag) || s.Before(cur) || (s.Equal(cur) && id == rootID) {
				on, via[i] = on.With(fk.flag, s), id
			}
		}
	}
	for i := range via {
		if via[i] == rootID {
			via[i] = ""
		}
	}
	return on, via
}

// list finds the list news in the session's own update: a list begun, an
// item completed. The first state seen of a session begun before the
// notifier started is where it stood, not news.
func (t *tracker) list(r *root, u Update, at time.Time, prevDone, prevTotal int, evs []Event, st *counters) []Event {
	if !r.listSeen {
		r.listSeen = true
		if u.Session.StartedAt.Before(t.start) {
			return evs
		}
	}
	if at.Before(t.start) {
		return evs
	}
	created := u.Total > 0 && (prevTotal == 0 || u.Done < prevDone)
	switch {
	case created:
		evs = t.emit(evs, st, Event{Kind: KindListCreated, Session: r.session, Since: at, Done: u.Done, Total: u.Total})
	case u.Done > prevDone:
		evs = t.emit(evs, st, Event{Kind: KindItemCompleted, Session: r.session, Since: at, Done: u.Done, Total: u.Total,
			Items: slices.Clone(u.Completed)})
	}
	return evs
}

// plan is the news in what a marker did to a plan: every such change is
// news once, unless its marker was written before the notifier started.
// It changes nothing the tracker keeps of sessions.
func (t *tracker) plan(s Session, p PlanNews, st *counters) []Event {
	if p.At.Before(t.start) {
		st.history.Add(1)
		return nil
	}
	return t.emit(nil, st, Event{Kind: p.Kind, Session: s, Since: p.At, Done: p.Done, Total: p.Total, Plan: &p})
}

func (t *tracker) emit(evs []Event, st *counters, e Event) []Event {
	if !t.kinds.Has(e.Kind) {
		st.filtered.Add(1)
		return evs
	}
	st.events.Add(1)
	return append(evs, e)
}

// makeRoom forgets the least recently active eighth of the sessions when
// there is no room for one more. A forgotten session seen again starts
// afresh: a condition it still has that began after the start is told
// again. Keeping nothing of it is what bounds memory; a missed
// notification for a new session would be worse than a repeat for one
// long quiet.
func (t *tracker) makeRoom(st *counters) {
	if len(t.roots) < t.maxSessions {
		return
	}
	ids := make([]string, 0, len(t.roots))
	for id := range t.roots {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return t.roots[a].lastAt.Compare(t.roots[b].lastAt) })
	for _, id := range ids[:max(1, len(ids)/8)] {
		delete(t.roots, id)
		st.forgotten.Add(1)
	}
}

func count(yes bool, c interface{ Add(int64) int64 }) {
	if yes {
		c.Add(1)
	}
}
