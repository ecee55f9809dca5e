package web

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
)

// errStopped answers a client that arrives after the server stopped.
var errStopped = errors.New("the server is shutting down")

// hub is the one owner of the replay ring, the client set and the records
// of live sessions. Everything else talks to it through channels; only
// latest and seq are read from outside (atomically).
type hub struct {
	o     *Options
	stats *counters
	sub   *broker.Subscription[index.Change]

	// base makes ids unique across runs and replicas (see runBase).
	base   uint64
	seq    atomic.Uint64
	latest atomic.Uint64

	ring  []*event
	start int // index of the oldest event in ring
	n     int
	// floor is the oldest id a client may resume after: the id just
	// before the oldest event the ring holds (after a resync, the id of
	// the next event).
	floor uint64

	clients map[*client]struct{}
	live    map[string]liveSession
	seen    int64 // indexer drops already resynchronised

	projects projectSet
	// known is the paths of projects, for handlers to name the projects
	// of a snapshot or list among them; run replaces it, never changes it.
	known atomic.Pointer[[]string]

	join  chan joinRequest
	leave chan *client
	done  chan struct{}
	// changed, when set, is told of every record the indexer's changes
	// carry (the relay's wake for decisions another replica took).
	changed func(*tally.Record)
	// plans brings plan changes, their views read (feedPlans).
	plans chan planNews
}

// liveSession is a session that has not ended, with the activity last
// sent for it.
type liveSession struct {
	rec tally.Record
	act tally.Activity
}

// client is one event stream. The hub alone sends on and closes ch.
type client struct {
	ch chan *event
}

type joinRequest struct {
	// after is the Last-Event-ID, when the client sent one.
	after    uint64
	hasAfter bool
	reply    chan joined
}

type joined struct {
	c *client
	// at is the id a snapshot must stand for.
	at       uint64
	snapshot bool
	replay   []*event
}

func newHub(o *Options, stats *counters) *hub {
	base := runBase()
	h := &hub{
		o: o, stats: stats, base: base, floor: base,
		sub:      o.Indexer.Subscribe(o.ChangeBuffer),
		ring:     make([]*event, o.Replay),
		clients:  make(map[*client]struct{}),
		live:     make(map[string]liveSession),
		projects: newProjectSet(o.Home),
		join:     make(chan joinRequest),
		leave:    make(chan *client),
		plans:    make(chan planNews),
		done:     make(chan struct{}),
	}
	h.latest.Store(base)
	h.known.Store(&[]string{})
	return h
}

// published counts the events up to the latest id. It is not seq, which
// emit takes before the event is the latest: a reader of Stats would see
// the count of an event whose id LastEventID does not show yet.
func (h *hub) published() uint64 { return h.latest.Load() - h.base }

func (h *hub) run(ctx context.Context) error {
	defer close(h.done)
	defer h.sub.Close()
	defer h.dropAll()
	// A store out of reach when serve starts (a database restarting, a
	// connection cut) is not the end of the server: the failure is logged
	// once and the seed tried again at every tick, as after a resync.
	unseeded := h.seed(ctx)
	if unseeded != nil && ctx.Err() == nil && h.o.ErrorLog != nil {
		h.o.ErrorLog.Printf("reading the sessions to watch: %v; trying again every %s", unseeded, h.o.Refresh)
	}
	tick := time.NewTicker(h.o.Refresh)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ch := <-h.sub.C: // closed only by run's own deferred Close
			h.apply(ch)
			if h.changed != nil {
				h.changed(&ch.Record)
			}
			if d := h.sub.Dropped(); d > h.seen {
				h.seen = d
				h.resync(ctx)
			}
		case r := <-h.join:
			r.reply <- h.add(r)
		case c := <-h.leave:
			h.remove(c)
		case n := <-h.plans:
			h.applyPlan(n)
		case <-tick.C:
			if unseeded != nil {
				if unseeded = h.seed(ctx); unseeded != nil {
					continue
				}
				if h.o.ErrorLog != nil {
					h.o.ErrorLog.Printf("the sessions to watch are read again")
				}
			}
			h.refresh()
		}
	}
}

// seed loads what a snapshot holds: the sessions that have not ended,
// whose activity the clock alone may change, and the projects a client
// may be shown.
func (h *hub) seed(ctx context.Context) error {
	now := h.o.Now()
	recs, err := h.o.snapshotRecords(ctx, now)
	if err != nil {
		return err
	}
	clear(h.live)
	for _, r := range recs {
		h.projects.add(r.Project)
		if a := tally.DeriveActivity(r.Signal, r.LastActivity, now); a != tally.ActivityEnded {
			h.live[r.ID] = liveSession{rec: r, act: a}
		}
	}
	h.projects.rename()
	h.publishProjects()
	return nil
}

func (h *hub) publishProjects() {
	paths := h.projects.paths()
	h.known.Store(&paths)
}

// knownProjects are the paths of the projects the hub names, clipped: a
// handler appends to them its own.
func (h *hub) knownProjects() []string { return slices.Clip(*h.known.Load()) }

// resync follows a change the indexer dropped for the hub: what clients
// hold can no longer be patched, so the ring is emptied and every client
// disconnected; each reconnects and gets a snapshot from the store.
//
// The changes still waiting were published before the drop was seen and
// may precede the lost ones; they are applied first, so that every event
// after the new floor was published after every lost change.
func (h *hub) resync(ctx context.Context) {
	for drained := false; !drained; {
		select {
		case ch := <-h.sub.C:
			h.apply(ch)
		default:
			drained = true
		}
	}
	h.stats.resyncs.Add(1)
	clear(h.ring)
	h.start, h.n = 0, 0
	// Nothing a client saw so far may be resumed after, not even the
	// latest event: the next event is the first safe one.
	h.floor = h.latest.Load() + 1
	h.dropAll()
	_ = h.seed(ctx) // on failure the next changes refill live
}

func (h *hub) apply(ch index.Change) {
	switch ch.Kind {
	case index.SessionUpdated:
		if h.projects.add(ch.Record.Project) {
			// Named before the session is sent, so a page never shows
			// its card under a name that another project shares.
			if changed := h.projects.rename(); changed != nil {
				h.emit(eventProjects, projectsData{Names: changed})
			}
			h.publishProjects()
		}
		v := ch.Record.Session(h.o.Now())
		h.track(ch.Record, v.Activity)
		h.emit(ch.Kind.String(), v)
	case index.SessionRemoved:
		delete(h.live, ch.ID)
		h.emit(ch.Kind.String(), removed{ID: ch.ID})
	}
}

func (h *hub) track(r tally.Record, a tally.Activity) {
	if a == tally.ActivityEnded {
		delete(h.live, r.ID)
		return
	}
	h.live[r.ID] = liveSession{rec: r, act: a}
}

// refresh publishes the sessions whose activity the passing of time
// changed.
func (h *hub) refresh() {
	now := h.o.Now()
	for _, ls := range h.live {
		if tally.DeriveActivity(ls.rec.Signal, ls.rec.LastActivity, now) == ls.act {
			continue
		}
		v := ls.rec.Session(now)
		h.track(ls.rec, v.Activity)
		h.emit(index.SessionUpdated.String(), v)
	}
}

// emit encodes one event, keeps it for replay and offers it to every
// client without waiting.
func (h *hub) emit(kind string, payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		h.stats.encodeErrors.Add(1)
		return
	}
	id := h.base + h.seq.Add(1)
	ev := &event{id: id, frame: appendFrame(nil, id, kind, data)}
	h.push(ev)
	h.latest.Store(id)
	for c := range h.clients {
		select {
		case c.ch <- ev:
		default:
			h.stats.drops.Add(1)
			h.remove(c)
		}
	}
}

func (h *hub) push(ev *event) {
	if h.n < len(h.ring) {
		h.ring[(h.start+h.n)%len(h.ring)] = ev
		h.n++
		return
	}
	h.floor = h.ring[h.start].id
	h.ring[h.start] = ev
	h.start = (h.start + 1) % len(h.ring)
}

// add registers a client and decides what it gets first: the events after
// its Last-Event-ID when the ring still holds them all, else a snapshot.
func (h *hub) add(r joinRequest) joined {
	latest := h.latest.Load()
	j := joined{c: &client{ch: make(chan *event, h.o.ClientBuffer)}, at: latest}
	if !r.hasAfter || r.after < h.floor || r.after > latest {
		j.snapshot = true
	} else {
		for i := range h.n {
			if ev := h.ring[(h.start+i)%len(h.ring)]; ev.id > r.after {
				j.replay = append(j.replay, ev)
			}
		}
	}
	h.clients[j.c] = struct{}{}
	h.stats.clients.Add(1)
	return j
}

func (h *hub) remove(c *client) {
	if _, ok := h.clients[c]; !ok {
		return
	}
	delete(h.clients, c)
	close(c.ch)
	h.stats.clients.Add(-1)
}

func (h *hub) dropAll() {
	for c := range h.clients {
		h.remove(c)
	}
}

// subscribe asks the hub for a place in the stream.
func (h *hub) subscribe(ctx context.Context, after uint64, hasAfter bool) (joined, error) {
	r := joinRequest{after: after, hasAfter: hasAfter, reply: make(chan joined, 1)}
	select {
	case h.join <- r:
		return <-r.reply, nil
	case <-h.done:
		return joined{}, errStopped
	case <-ctx.Done():
		return joined{}, ctx.Err()
	}
}

// unsubscribe leaves the stream; after the hub stopped there is nothing
// to leave.
func (h *hub) unsubscribe(c *client) {
	select {
	case h.leave <- c:
	case <-h.done:
	}
}

// Event ids of a run are base+1, base+2, …; runBase draws base at random
// in [2⁵⁰, 2⁵³ − 2⁴⁰), so ids stay below 2⁵³ for 2⁴⁰ events, and two runs —
// this server's last, or another replica's behind the same load balancer,
// started in the same instant — overlap with a chance of about n/2⁵³ for
// n events: an id of another run is not taken for one of this run.
func runBase() uint64 {
	const lo, hi = 1 << 50, 1<<53 - 1<<40
	return lo + rand.Uint64N(hi-lo)
}

// parseID reads an event id; anything else is no id (a snapshot).
func parseID(s string) (uint64, bool) {
	id, err := strconv.ParseUint(s, 10, 64)
	return id, err == nil
}
