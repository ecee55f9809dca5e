package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/redact"
)

// Defaults of Options.
const (
	DefaultBatchRecords = tally.MaxPushSessions
	DefaultBatchBytes   = 4 << 20
	DefaultPoll         = time.Second
	DefaultMinBackoff   = 250 * time.Millisecond
	DefaultMaxBackoff   = 30 * time.Second
	// requestTimeout bounds one request, answer included.
	requestTimeout = time.Minute
	// maxLineCounts bounds the sessions whose line counts are remembered
	// for the changed-lines figure.
	maxLineCounts = 100_000
)

// Options configure a Pusher. Store, Server, Token, Machine and StateFile
// are required.
type Options struct {
	// Store is the local store the indexer commits to.
	Store tally.Store
	// Server is the team server's address: http(s)://host[:port][/prefix].
	Server string
	// Token is a token of scope push.
	Token   string
	Machine string
	User    string
	// StateFile keeps the stream and its acknowledged mark.
	StateFile string
	// Wake tells of local commits (the indexer's changes); every Poll the
	// store's change mark is also read, for commits of other processes
	// (hooks, tally mcp).
	Wake <-chan struct{}
	Poll time.Duration
	// Client sends the requests; nil is a client with a one-minute timeout.
	Client       *http.Client
	BatchRecords int
	BatchBytes   int
	MinBackoff   time.Duration
	MaxBackoff   time.Duration
	// Log receives a line for what a person running push wants to know:
	// caught up, the server unreachable and back, a session skipped.
	Log func(string)
	// UserAgent names the program in requests.
	UserAgent string
	// DecisionWait is how long one ask for decisions on this machine's
	// open requests waits at the server (DefaultDecisionWait).
	DecisionWait time.Duration
}

// Stats are a pusher's figures since it started.
type Stats struct {
	Batches int64 `json:"batches"`
	Records int64 `json:"records"`
	// Lines are the changed lines the acknowledged records stand for: for
	// each record, the lines its session's files grew by since it was
	// last sent (all of them the first time in a run).
	Lines   int64 `json:"lines"`
	Repeats int64 `json:"repeats"`
	Resends int64 `json:"resends"`
	Retries int64 `json:"retries"`
	Skipped int64 `json:"skipped"`
	// Decisions are the decisions the server took on this machine's
	// requests that the local store took.
	Decisions int64 `json:"decisions"`
	// Acked is the stream's acknowledged mark.
	Acked int64 `json:"acked"`
}

// Pusher ships the local store's changes to a team server.
type Pusher struct {
	o   Options
	url string
	// name is the server as messages show it (redact.URL).
	name string
	st   state
	// lines remembers each session's line count as last sent.
	lines map[string]int64
	stats struct {
		batches, records, lines, repeats, resends, retries, skipped, acked, decisions atomic.Int64
	}
	// upToDate is closed the first time everything committed has been
	// acknowledged.
	upToDate chan struct{}
	caughtUp bool
	// waiting are the open requests shown the server, whose decisions the
	// pusher asks for (decisions.go).
	waiting      waiting
	decisionsURL string
}

// New reads the saved state and checks the options.
func New(o Options) (*Pusher, error) {
	const op = "push"
	if o.Store == nil || o.Token == "" || o.Machine == "" || o.StateFile == "" {
		return nil, tally.Errorf(tally.CodeInvalid, op, "push needs a store, a token, a machine name and a state file")
	}
	base := strings.TrimRight(o.Server, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, tally.Errorf(tally.CodeInvalid, op, "--server %q: want http(s)://host[:port]", redact.URL(o.Server))
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if o.BatchRecords <= 0 || o.BatchRecords > tally.MaxPushSessions {
		o.BatchRecords = DefaultBatchRecords
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = DefaultBatchBytes
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.MinBackoff)
	}
	if o.DecisionWait <= 0 {
		o.DecisionWait = DefaultDecisionWait
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: requestTimeout}
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	st, err := loadState(o.StateFile, base, o.Machine)
	if err != nil {
		return nil, tally.Errorf(tally.CodeUnavailable, op, "%v", err)
	}
	p := &Pusher{o: o, url: base + "/api/push", decisionsURL: base + "/api/push/decisions", name: redact.URL(base), st: st,
		lines: map[string]int64{}, upToDate: make(chan struct{}), waiting: waiting{reqs: map[string]openRequest{}, kick: make(chan struct{}, 1)}}
	p.stats.acked.Store(st.Acked)
	return p, nil
}

// Stats reads the figures.
func (p *Pusher) Stats() Stats {
	return Stats{
		Batches: p.stats.batches.Load(), Records: p.stats.records.Load(), Lines: p.stats.lines.Load(),
		Repeats: p.stats.repeats.Load(), Resends: p.stats.resends.Load(), Retries: p.stats.retries.Load(),
		Skipped: p.stats.skipped.Load(), Acked: p.stats.acked.Load(), Decisions: p.stats.decisions.Load(),
	}
}

// UpToDate is closed once everything the local store held has been
// acknowledged by the server.
func (p *Pusher) UpToDate() <-chan struct{} { return p.upToDate }

// Stream is the id of the stream this pusher sends.
func (p *Pusher) Stream() string { return p.st.Stream }

// errFatal wraps what retrying cannot fix: a token the server refuses.
type errFatal struct{ err error }

func (e errFatal) Error() string { return e.err.Error() }
func (e errFatal) Unwrap() error { return e.err }

// Run sends until ctx ends: everything committed so far, then whatever is
// committed next. It returns nil when ctx ends, and an error only for what
// retrying cannot fix (the server refuses the token, the state file cannot
// be written).
//
// While a request of the local store waits, shown the server open, Run
// also asks the server for the decisions on it and takes them into the
// local store (decisions.go).
func (p *Pusher) Run(ctx context.Context) error {
	tick := time.NewTicker(p.o.Poll)
	defer tick.Stop()
	if keeper, ok := p.o.Store.(tally.RequestKeeper); ok {
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			p.relay(rctx, keeper)
		}()
		defer func() {
			cancel()
			<-done
		}()
	}
	for {
		drained, err := p.drain(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		if drained && !p.caughtUp {
			p.caughtUp = true
			close(p.upToDate)
			p.o.Log(fmt.Sprintf("up to date: %d sessions sent as %s", p.stats.records.Load(), p.o.Machine))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-p.o.Wake:
		case <-tick.C:
		}
	}
}

// drain sends batches until the local store holds nothing newer than the
// acknowledged mark.
func (p *Pusher) drain(ctx context.Context) (bool, error) {
	mark, err := p.o.Store.ChangeMark(ctx)
	if err != nil {
		return false, nil // the local store is busy or gone for now: the next tick tries again
	}
	if mark < p.st.Acked {
		// The store's marks started again: another store. Its records are
		// a new stream, sent from the start.
		p.o.Log("this machine's index is not the one pushed before (it was rebuilt or replaced): sending all its sessions again; the server keeps each once")
		p.st = state{Server: p.st.Server, Machine: p.st.Machine, Stream: newStream()}
		if err := p.save(); err != nil {
			return false, err
		}
	}
	limit := p.o.BatchRecords
	for ctx.Err() == nil {
		recs, to, err := p.page(ctx, limit)
		if err != nil {
			return false, nil
		}
		if to == p.st.Acked {
			return true, nil
		}
		b, fits := p.batch(recs, to)
		if fits < len(recs) {
			limit = max(fits, 1) // read again, fewer: the page's mark must end where the batch does
			continue
		}
		ack, err := p.send(ctx, &b)
		var tooBig errTooLarge
		switch {
		case errors.As(err, &tooBig) && len(recs) > 1:
			limit = max(len(recs)/2, 1)
			continue
		case errors.As(err, &tooBig):
			// One session the server will not take: say so and go past it.
			p.stats.skipped.Add(1)
			p.o.Log(fmt.Sprintf("session %s skipped: %v", recs[0].ID, tooBig.err))
			b.Sessions = nil
			if ack, err = p.send(ctx, &b); err != nil {
				return false, err
			}
		case err != nil:
			return false, err
		}
		if err := p.acked(ack, &b); err != nil {
			return false, err
		}
		limit = p.o.BatchRecords
	}
	return false, nil
}

// page reads the records changed since the acknowledged mark, at most
// limit of them, and the mark they run to.
func (p *Pusher) page(ctx context.Context, limit int) ([]tally.Record, int64, error) {
	return p.o.Store.ChangedLimit(ctx, p.st.Acked, limit)
}

// batch makes the batch of a page, leaving out Tally's own task lists (a
// team's lists are the server's). fits is how many records fit in
// BatchBytes (at least one).
func (p *Pusher) batch(recs []tally.Record, to int64) (tally.PushBatch, int) {
	_, relays := p.o.Store.(tally.RequestKeeper)
	b := tally.PushBatch{Machine: p.o.Machine, User: p.o.User, Stream: p.st.Stream, From: p.st.Acked, To: to, Relays: relays}
	size := 0
	for i := range recs {
		rec := &recs[i]
		js, err := json.Marshal(rec)
		if err == nil {
			size += len(js)
		}
		if size > p.o.BatchBytes && i > 0 {
			return b, i
		}
		if rec.Agent == tally.AgentTally {
			continue
		}
		if prev, ok := p.lines[rec.ID]; ok {
			b.Lines += max(rec.Stats.Lines-prev, 0)
		} else {
			b.Lines += rec.Stats.Lines
		}
		b.Sessions = append(b.Sessions, *rec)
	}
	return b, len(recs)
}

// acked moves the acknowledged mark as the server answered, and saves it.
func (p *Pusher) acked(ack tally.PushAck, b *tally.PushBatch) error {
	switch {
	case ack.Resend:
		p.stats.resends.Add(1)
		p.o.Log("the server lacks some of this machine's sessions it had taken (its database restored from a backup?): sending them again")
	default:
		// A repeat is a batch that landed before, its answer lost: its
		// records and lines were delivered then.
		applied := int64(ack.Applied)
		if ack.Repeat {
			p.stats.repeats.Add(1)
			applied = int64(len(b.Sessions))
		}
		p.stats.batches.Add(1)
		p.stats.records.Add(applied)
		p.stats.lines.Add(b.Lines)
		if len(p.lines) > maxLineCounts {
			clear(p.lines)
		}
		for i := range b.Sessions {
			p.lines[b.Sessions[i].ID] = b.Sessions[i].Stats.Lines
		}
		for _, id := range ack.Refused {
			p.o.Log(fmt.Sprintf("session %s refused by the server: a session of another machine has its id", id))
		}
	}
	if !ack.Resend {
		p.waiting.note(b.Sessions, time.Now())
	}
	p.st.Acked = ack.Acked
	p.stats.acked.Store(ack.Acked)
	return p.save()
}

func (p *Pusher) save() error {
	if err := p.st.save(p.o.StateFile); err != nil {
		return errFatal{tally.Errorf(tally.CodeUnavailable, "push", "saving the push state %s: %v", p.o.StateFile, err)}
	}
	return nil
}

// backoff is the wait before retry n (0 first): a random time up to the
// exponential bound (full jitter), so machines cut off together do not
// come back together.
func (p *Pusher) backoff(n int) time.Duration {
	bound := p.o.MaxBackoff
	if n < 30 {
		bound = min(p.o.MinBackoff<<n, p.o.MaxBackoff)
	}
	return time.Duration(rand.Int64N(int64(bound)) + 1)
}
