package postgres

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// The watch connection's timing.
const (
	// pingEvery: after this long without a notification the connection is
	// pinged, so a connection the network silently lost is noticed and
	// replaced rather than waited on for ever.
	pingEvery   = 30 * time.Second
	pingTimeout = 5 * time.Second
	// The delay before connecting again doubles from retryMin to retryMax
	// while the server cannot be reached.
	retryMin = 50 * time.Millisecond
	retryMax = 5 * time.Second
)

// Watch returns a channel that receives a value soon after records are
// committed to the database — by this process or any other — so the
// caller reads Changed from its mark at once instead of polling. A value
// may stand for several commits, or for none: one is sent at once, for
// what was committed before the watch began, and one each time the watch
// connection is made again after it was lost, because commits made
// meanwhile were notified to no one. A caller that reads Changed on every
// value therefore misses no commit.
//
// The channel is closed when ctx ends or the store is closed. The first
// Watch opens one connection that LISTENs for the whole store; it needs a
// server session of its own (a pooler in transaction mode cannot carry
// LISTEN).
func (s *Store) Watch(ctx context.Context) <-chan struct{} {
	return s.w.add(ctx)
}

// watcher owns the LISTEN connection and the watchers' channels.
type watcher struct {
	cfg *pgx.ConnConfig

	mu      sync.Mutex
	subs    map[chan struct{}]struct{}
	started bool
	stopped bool
	cancel  context.CancelFunc
	done    chan struct{}

	// connects counts LISTEN connections made (for tests and stats).
	connects atomic.Int64
}

func newWatcher(cfg *pgx.ConnConfig) *watcher {
	cfg.RuntimeParams["application_name"] = "tally watch"
	return &watcher{cfg: cfg, subs: map[chan struct{}]struct{}{}, done: make(chan struct{})}
}

func (w *watcher) add(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	ch <- struct{}{}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		close(ch)
		return ch
	}
	w.subs[ch] = struct{}{}
	if !w.started {
		w.started = true
		var runCtx context.Context
		runCtx, w.cancel = context.WithCancel(context.Background())
		go w.run(runCtx)
	}
	context.AfterFunc(ctx, func() { w.remove(ch) })
	return ch
}

func (w *watcher) remove(ch chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.subs[ch]; ok {
		delete(w.subs, ch)
		close(ch)
	}
}

// wake offers every watcher a value without waiting: one already waiting
// stands for this one too.
func (w *watcher) wake() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// stop ends the connection and closes every watcher's channel.
func (w *watcher) stop() {
	w.mu.Lock()
	w.stopped = true
	started := w.started
	if w.cancel != nil {
		w.cancel()
	}
	for ch := range w.subs {
		delete(w.subs, ch)
		close(ch)
	}
	w.mu.Unlock()
	if started {
		<-w.done
	}
}

// run keeps a LISTEN connection until ctx ends, connecting again whenever
// it is lost.
func (w *watcher) run(ctx context.Context) {
	defer close(w.done)
	delay := retryMin
	for {
		before := w.connects.Load()
		_ = w.listen(ctx) // why it ended changes nothing: connect again
		if w.connects.Load() != before {
			delay = retryMin
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, retryMax)
	}
}

// listen connects, LISTENs, and wakes the watchers on each notification
// until the connection fails or ctx ends.
func (w *watcher) listen(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, w.cfg)
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	w.connects.Add(1)
	// Commits since the last notification, or before the first watch, may
	// have been notified to no one: every watcher reads Changed now.
	w.wake()
	for {
		wctx, cancel := context.WithTimeout(ctx, pingEvery)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			w.wake()
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, context.DeadlineExceeded):
			pctx, cancel := context.WithTimeout(ctx, pingTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return err
			}
		default:
			return err
		}
	}
}
