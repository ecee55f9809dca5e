package cli

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/store"
)

// changeSource is what a notifier follows: the indexer's committed
// changes.
type changeSource interface {
	Subscribe(buf int) *broker.Subscription[index.Change]
}

// notifying is a long-running command's notifier: it follows the
// indexer's changes from the moment it starts, so that what the catch-up
// scan read is history, and hands each session's state to notify, which
// decides what is news.
type notifying struct {
	a    *app
	sub  *broker.Subscription[index.Change]
	n    *notify.Notifier
	done chan struct{}
	once sync.Once
}

// startNotifying starts notifying from the settings (see notifyOptions).
// It tells skipped which sinks the person asked for that it could not
// make ("desktop: …") — not the desktop sink on only by default, whose
// absence on a machine without notify-send is no news at every start
// (`tally config` still lists it); with no sink it follows nothing and
// stop does nothing. term is where the desktop sink writes the terminal's
// notification sequence when there is no notify-send (nil: nowhere). On a
// store several replicas
// share (a tally.Elector), only the replica elected for it notifies, so a
// team is told once, not once per replica; another takes over when it
// dies.
func (a *app) startNotifying(ctx context.Context, cfg *config.Config, term io.Writer, ix changeSource, st store.Store, skipped func(string)) (*notifying, error) {
	opts, notMade, err := notifyOptions(cfg, term, a.env.Now)
	if err != nil {
		return nil, err
	}
	for _, s := range notMade {
		if s.asked {
			skipped(s.why)
		}
	}
	opts.OnFailure = a.logNotifyFailure
	nf := &notifying{done: make(chan struct{})}
	if len(opts.Sinks) == 0 {
		close(nf.done)
		return nf, nil
	}
	nf.n = notify.New(ctx, opts)
	// Plan news (a step blocked, a task complete) go through the same
	// notifier, under the same limits (runLive).
	a.notices.Store(nf.n)
	nf.a = a
	var lease tally.Lease
	if e, ok := st.(tally.Elector); ok {
		lease = e.Lead(ctx, "notify")
	}
	nf.sub = ix.Subscribe(changeBuffer)
	go func() {
		defer close(nf.done)
		for ch := range nf.sub.C {
			if lease != nil && !lease.Leading() {
				continue
			}
			if ch.Kind == index.SessionUpdated {
				nf.n.Publish(updateOf(&ch.Record, a.now()))
			}
		}
	}()
	return nf, nil
}

// logNotifyFailure writes a notification a sink did not deliver to Tally's
// log: a live command's screen (the terminal UI, the board) is no place
// for it, and it must not pass unsaid.
func (a *app) logNotifyFailure(sink string, err error) {
	appendLog(a.logPath(), fmt.Sprintf("%s notify %s: not delivered: %v", a.now().UTC().Format(time.RFC3339), sink, err))
}

// printSkipped says on standard error that a sink is not notified.
func (a *app) printSkipped(sink string) {
	fmt.Fprintf(a.env.Err, "tally: not notifying %s\n", sink)
}

// stop stops following, sends what is pending and waits for it.
func (nf *notifying) stop() {
	nf.once.Do(func() {
		if nf.sub != nil {
			nf.sub.Close()
		}
		<-nf.done
		if nf.n != nil {
			nf.a.notices.CompareAndSwap(nf.n, nil)
			nf.n.Close()
		}
	})
}

// updateOf is a record as notify takes it: its flags now, its list's X of
// Y, and the time of its last activity.
func updateOf(rec *tally.Record, now time.Time) notify.Update {
	s := rec.Session(now)
	return notify.Update{
		Session: notify.Session{ID: rec.ID, Agent: rec.Agent, Project: rec.Project, Title: rec.Title, StartedAt: rec.StartedAt},
		At:      rec.LastActivity, Flags: s.Flags, Done: s.Progress.Done, Total: s.Progress.Total,
	}
}

// detectRules are the thresholds of detection the settings give.
func detectRules(c *config.Config) detect.Rules {
	r := detect.DefaultRules()
	r.StalledAfter = c.Detect.StalledAfter.Duration
	r.LoopRepeats = c.Detect.LoopRepeats
	r.NoProgressCalls = c.Detect.NoProgressCalls
	return r
}
