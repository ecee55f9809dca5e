package notify

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Options (and of the settings' [notify]).
const (
	DefaultSettle = 2 * time.Minute
	DefaultBurst  = 2 * time.Second
)

// Options configure a Notifier. Zero fields take the documented defaults.
type Options struct {
	// Sinks receive the messages, each at its own pace.
	Sinks []SinkOptions
	// Kinds are the events sent; zero means DefaultKinds.
	Kinds Kinds
	// Settle: a condition that clears and comes back within this time is
	// the same occurrence. Default 2m; negative: every return is news.
	Settle time.Duration
	// Burst: events within this time of the first go out as one message.
	// Default 2s; negative sends each update's events at once.
	Burst time.Duration
	// Queue bounds the updates waiting to be looked at; Publish drops (and
	// counts) what does not fit. Default 1024.
	Queue int
	// MaxSessions bounds the sessions remembered; the least recently
	// active are forgotten first. Default 10,000.
	MaxSessions int
	// Retry is how a sink that fails for a passing reason is retried.
	Retry Retry
	// Now is the clock; default time.Now. Conditions older than Now at New
	// are history, never news.
	Now func() time.Time
	// OnFailure, when set, is told of each message a sink did not deliver:
	// refused by the receiver, or given up on after the retries. It is
	// called from the sink's goroutine and must not block long.
	OnFailure func(sink string, err error)
}

// SinkOptions is one sink and its rate limit.
type SinkOptions struct {
	Sink Sink
	// MaxPerMinute bounds the messages sent a minute; events over it wait
	// and go out together in the next message. 0 means no bound.
	MaxPerMinute int
}

// Retry is the backoff of a failing sink: after the first failure it waits
// First, then twice as long each time up to Max, for Attempts tries in all.
type Retry struct {
	Attempts int           // default 5
	First    time.Duration // default 1s
	Max      time.Duration // default 1m
}

func (o *Options) defaults() {
	if o.Kinds == 0 {
		o.Kinds = DefaultKinds()
	}
	if o.Settle == 0 {
		o.Settle = DefaultSettle
	}
	if o.Burst == 0 {
		o.Burst = DefaultBurst
	}
	if o.Queue <= 0 {
		o.Queue = 1024
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = 10_000
	}
	if o.Retry.Attempts <= 0 {
		o.Retry.Attempts = 5
	}
	if o.Retry.First <= 0 {
		o.Retry.First = time.Second
	}
	if o.Retry.Max <= 0 {
		o.Retry.Max = time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Notifier turns session updates into notifications. Publish never blocks;
// one goroutine owns the sessions' state and decides what is news, and each
// sink sends from its own goroutine.
type Notifier struct {
	opts    Options
	in      chan news
	closing chan struct{} // closed by Close: finish up
	flush   chan struct{} // closed by the owner once its last burst is handed out
	once    sync.Once
	closed  atomic.Bool
	wg      sync.WaitGroup
	sinks   []*runner
	stats   counters
	track   *tracker
}

// New starts a notifier. Cancelling ctx stops it at once, dropping what is
// unsent; Close stops it after sending what is pending.
func New(ctx context.Context, opts Options) *Notifier {
	opts.defaults()
	n := &Notifier{
		opts:    opts,
		in:      make(chan news, opts.Queue),
		closing: make(chan struct{}),
		flush:   make(chan struct{}),
		track:   newTracker(opts),
	}
	for _, so := range opts.Sinks {
		r := newRunner(so, opts.Retry, opts.OnFailure)
		n.sinks = append(n.sinks, r)
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			r.run(ctx, n.flush)
		}()
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		n.own(ctx)
	}()
	return n
}

// news is what the queue carries: a session's update, or what a marker
// did to a plan.
type news struct {
	u    Update
	plan *PlanNews
}

// Publish hands an update to the notifier without waiting: when the queue
// is full, or the notifier closed, the update is dropped and counted.
func (n *Notifier) Publish(u Update) { n.put(news{u: u}) }

// PublishPlan hands over what an agent's progress marker did to the plan
// of session s's project, as Publish does: never waiting. Each is news
// once (a marker is applied once), unless the marker was written before
// the notifier started.
func (n *Notifier) PublishPlan(s Session, p PlanNews) {
	n.put(news{u: Update{Session: s, At: p.At}, plan: &p})
}

func (n *Notifier) put(x news) {
	if n.closed.Load() {
		n.stats.dropped.Add(1)
		return
	}
	select {
	case n.in <- x:
		n.stats.published.Add(1)
	default:
		n.stats.dropped.Add(1)
	}
}

// Close stops taking updates, sends what is pending (each sink once more,
// whatever its rate limit), and waits for every goroutine to end.
func (n *Notifier) Close() {
	n.once.Do(func() {
		n.closed.Store(true)
		close(n.closing)
	})
	n.wg.Wait()
}

// own is the one goroutine that reads updates and owns the sessions'
// state and the burst being collected.
func (n *Notifier) own(ctx context.Context) {
	var burst Message
	var timer *time.Timer
	var fire <-chan time.Time
	take := func(x news) {
		var evs []Event
		if x.plan != nil {
			evs = n.track.plan(x.u.Session, *x.plan, &n.stats)
		} else {
			evs = n.track.update(x.u, &n.stats)
		}
		if len(evs) == 0 {
			return
		}
		burst.add(evs...)
		if n.opts.Burst < 0 {
			n.handOut(&burst)
		} else if timer == nil {
			timer = time.NewTimer(n.opts.Burst)
			fire = timer.C
		}
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case u := <-n.in:
			take(u)
		case <-fire:
			timer, fire = nil, nil
			n.handOut(&burst)
		case <-n.closing:
		drain:
			for {
				select {
				case u := <-n.in:
					take(u)
				default:
					break drain
				}
			}
			n.handOut(&burst)
			close(n.flush)
			return
		}
	}
}

// handOut gives the burst to every sink; it never waits for one.
func (n *Notifier) handOut(m *Message) {
	if len(m.Events) == 0 {
		return
	}
	n.stats.messages.Add(1)
	for _, r := range n.sinks {
		r.add(*m)
	}
	*m = Message{}
}

// Stats counts what the notifier did.
type Stats struct {
	// Published updates were taken; Dropped ones did not fit the queue (or
	// came after Close).
	Published, Dropped int64
	// Events is the news found; History the conditions swallowed because
	// they were so before the notifier started; Repeats the conditions
	// that came back within the settle time; Filtered the news of kinds
	// not asked for.
	Events, History, Repeats, Filtered int64
	// Messages is the bursts handed to the sinks.
	Messages int64
	// Forgotten counts sessions dropped to stay within MaxSessions.
	Forgotten int64
	Sinks     []SinkStats
}

type counters struct {
	published, dropped                 atomic.Int64
	events, history, repeats, filtered atomic.Int64
	messages, forgotten                atomic.Int64
}

// Stats returns the counters so far.
func (n *Notifier) Stats() Stats {
	s := Stats{
		Published: n.stats.published.Load(), Dropped: n.stats.dropped.Load(),
		Events: n.stats.events.Load(), History: n.stats.history.Load(),
		Repeats: n.stats.repeats.Load(), Filtered: n.stats.filtered.Load(),
		Messages: n.stats.messages.Load(), Forgotten: n.stats.forgotten.Load(),
	}
	for _, r := range n.sinks {
		s.Sinks = append(s.Sinks, r.stats())
	}
	return s
}
