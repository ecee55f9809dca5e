package notify

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Sink sends a message somewhere. Send makes one attempt; the notifier
// retries an error that wraps *TemporaryError, and counts one that wraps
// *RejectedError. A Sink that also has Close() is closed when the notifier
// stops.
type Sink interface {
	Name() string
	Send(ctx context.Context, m Message) error
}

// TemporaryError is a failure that may pass: a 5xx, a 429, a timeout, a
// connection refused. After, if set, is how long the receiver asked to be
// left alone.
type TemporaryError struct {
	Err   error
	After time.Duration
}

func (e *TemporaryError) Error() string { return e.Err.Error() }
func (e *TemporaryError) Unwrap() error { return e.Err }

// RejectedError is a refusal that retrying cannot change: the receiver
// said the request itself is wrong (a 4xx other than 429).
type RejectedError struct {
	Status int
	Err    error
}

func (e *RejectedError) Error() string { return e.Err.Error() }
func (e *RejectedError) Unwrap() error { return e.Err }

// SinkStats counts what one sink did.
type SinkStats struct {
	Name string
	// Sent messages were accepted. Retried counts attempts after a
	// temporary failure; Failed the messages given up on; Rejected those
	// refused outright (4xx); Waited the times the rate limit held a
	// message back.
	Sent, Retried, Failed, Rejected, Waited int64
	// LastError is the newest failure, "" if none.
	LastError string
}

// runner is one sink's goroutine: it takes what the notifier hands out,
// merges whatever piles up while it waits, and sends.
type runner struct {
	sink Sink
	// onFailure is Options.OnFailure (nil: nobody is told).
	onFailure func(string, error)
	lim       *rate.Limiter
	retry     Retry
	wake      chan struct{}

	mu      sync.Mutex
	pending Message

	sent, retried, failed, rejected, waited atomic.Int64
	lastErr                                 atomic.Value // string
}

func newRunner(o SinkOptions, retry Retry, onFailure func(string, error)) *runner {
	r := &runner{sink: o.Sink, retry: retry, wake: make(chan struct{}, 1), onFailure: onFailure}
	if o.MaxPerMinute > 0 {
		r.lim = rate.NewLimiter(rate.Every(time.Minute/time.Duration(o.MaxPerMinute)), 1)
	}
	return r
}

// add queues a burst without waiting. The queue is one Message, which
// lists at most maxEvents events and counts the rest, so it is bounded
// however slow the sink.
func (r *runner) add(m Message) {
	r.mu.Lock()
	r.pending.add(m.Events...)
	r.pending.More += m.More
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *runner) take() Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.pending
	r.pending = Message{}
	return m
}

// putBack returns an unsent message to the front of the queue.
func (r *runner) putBack(m Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var merged Message
	merged.add(m.Events...)
	merged.add(r.pending.Events...)
	merged.More += m.More + r.pending.More
	r.pending = merged
}

func (r *runner) run(ctx context.Context, flush <-chan struct{}) {
	if c, ok := r.sink.(interface{ Close() error }); ok {
		defer c.Close()
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-flush:
			r.final(ctx)
			return
		case <-r.wake:
		}
		if !r.token(ctx, flush) {
			r.final(ctx)
			return
		}
		m := r.take()
		if len(m.Events) == 0 {
			continue
		}
		if !r.deliver(ctx, flush, m) {
			r.final(ctx)
			return
		}
	}
}

// token waits for the rate limit. It is false when the notifier is
// stopping instead.
func (r *runner) token(ctx context.Context, flush <-chan struct{}) bool {
	if r.lim == nil {
		return true
	}
	res := r.lim.Reserve()
	d := res.Delay()
	if d == 0 {
		return true
	}
	r.waited.Add(1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-flush:
	}
	res.Cancel()
	return false
}

// deliver sends m, retrying temporary failures with exponential backoff.
// It is false when the notifier began stopping during a backoff; m is then
// back in the queue for the final send.
func (r *runner) deliver(ctx context.Context, flush <-chan struct{}, m Message) bool {
	wait := r.retry.First
	for attempt := 1; ; attempt++ {
		err := r.sink.Send(ctx, m)
		if err == nil {
			r.sent.Add(1)
			return true
		}
		r.lastErr.Store(err.Error())
		var rej *RejectedError
		var tmp *TemporaryError
		switch {
		case errors.As(err, &rej):
			r.rejected.Add(1)
			r.tell(err)
			return true
		case !errors.As(err, &tmp) || attempt >= r.retry.Attempts || ctx.Err() != nil:
			r.failed.Add(1)
			r.tell(err)
			return true
		}
		d := min(max(wait, tmp.After), r.retry.Max)
		wait = min(wait*2, r.retry.Max)
		r.retried.Add(1)
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			r.failed.Add(1)
			r.tell(err)
			return true
		case <-flush:
			t.Stop()
			r.putBack(m)
			return false
		}
	}
}

// final is the one last attempt when the notifier closes: whatever is
// queued, once, rate limit or not.
func (r *runner) final(ctx context.Context) {
	m := r.take()
	if len(m.Events) == 0 || ctx.Err() != nil {
		return
	}
	err := r.sink.Send(ctx, m)
	if err == nil {
		r.sent.Add(1)
		return
	}
	r.lastErr.Store(err.Error())
	r.tell(err)
	if rej := (*RejectedError)(nil); errors.As(err, &rej) {
		r.rejected.Add(1)
		return
	}
	r.failed.Add(1)
}

func (r *runner) stats() SinkStats {
	s := SinkStats{
		Name: r.sink.Name(), Sent: r.sent.Load(), Retried: r.retried.Load(),
		Failed: r.failed.Load(), Rejected: r.rejected.Load(), Waited: r.waited.Load(),
	}
	if e, ok := r.lastErr.Load().(string); ok {
		s.LastError = e
	}
	return s
}

// tell passes a message the sink did not deliver to onFailure.
func (r *runner) tell(err error) {
	if r.onFailure != nil {
		r.onFailure(r.sink.Name(), err)
	}
}
