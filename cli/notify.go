package cli

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/planner"
)

// newNotifier is the notifier of a live command, from the settings, nil
// when it has nothing to tell. A command that notifies of sessions tells
// skipped which sinks the person asked for that it could not make
// ("desktop: …") — not the desktop sink on only by default, whose absence
// on a machine without notify-send is no news at every start (`tally
// config` still lists it); broken notify settings are its error. A
// command that tells only plan news makes a notifier when the settings
// ask for plan news and name somewhere to send it; broken settings are a
// problem it reports, not its failure.
func (a *app) newNotifier(ctx context.Context, cfg *config.Config, o liveOptions) (*notify.Notifier, error) {
	if o.notify == notifyNothing {
		return nil, nil
	}
	opts, notMade, err := notifyOptions(cfg, o.term, a.env.Now)
	switch {
	case err != nil && o.notify == notifySessions:
		return nil, err
	case err != nil:
		fmt.Fprintf(a.env.Err, "tally: plan notifications: %s\n", tally.UserMessage(err))
		return nil, nil
	}
	if o.notify == notifySessions {
		for _, s := range notMade {
			if s.asked && o.skipped != nil {
				o.skipped(s.why)
			}
		}
	} else {
		wanted := false
		for _, k := range planKinds {
			wanted = wanted || opts.Kinds.Has(k)
		}
		if !wanted {
			return nil, nil
		}
	}
	if len(opts.Sinks) == 0 {
		return nil, nil
	}
	opts.OnFailure = a.logNotifyFailure
	return notify.New(ctx, opts), nil
}

// startFollowing makes the notifier follow the indexer's committed
// changes from now on, once: what the indexer read before is history, and
// notify decides what of the rest is news. On a store several replicas
// share (a tally.Elector), only the replica elected for it tells of
// sessions, so a team is told once, not once per replica; another takes
// over when it dies.
func (l *live) startFollowing(ctx context.Context) {
	l.follow.Do(func() {
		if l.news == nil || !l.sessions {
			close(l.followed)
			return
		}
		var lease tally.Lease
		if e, ok := l.st.(tally.Elector); ok {
			lease = e.Lead(ctx, "notify")
		}
		l.sub = l.ix.Subscribe(changeBuffer)
		go func() {
			defer close(l.followed)
			for ch := range l.sub.C {
				if lease != nil && !lease.Leading() {
					continue
				}
				if ch.Kind == index.SessionUpdated {
					l.news.Publish(updateOf(&ch.Record, l.a.now(), l.board))
				}
			}
		}()
	})
}

// planNews tells the notifier a plan's news as the planner makes it.
func (l *live) planNews(e planner.Event) {
	if l.news != nil {
		l.news.PublishPlan(notify.Session{ID: e.Session, Project: e.Project}, planNews(e))
	}
}

// closeNews stops following, sends what is pending and waits for it.
func (l *live) closeNews() {
	l.follow.Do(func() { close(l.followed) })
	if l.sub != nil {
		l.sub.Close()
	}
	<-l.followed
	if l.news != nil {
		l.news.Close()
	}
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

// updateOf is a record as notify takes it: its flags now, its list's X of
// Y, and the time of its last activity.
//
// A session whose agent asks something (an open request) says what, and,
// with the board's address, links to it there (?session=ID opens it).
func updateOf(rec *tally.Record, now time.Time, board string) notify.Update {
	s := rec.Session(now)
	ns := notify.Session{ID: rec.ID, Agent: rec.Agent, Project: rec.Project, Title: rec.Title, StartedAt: rec.StartedAt}
	for _, r := range rec.Requests {
		if r.Open(now) {
			ns.Asks = hook.Line(r.Tool + ": " + r.Summary)
			if board != "" {
				ns.Link = strings.TrimSuffix(board, "/") + "/?session=" + url.QueryEscape(rec.ID)
			}
			break
		}
	}
	return notify.Update{Session: ns, At: rec.LastActivity, Flags: s.Flags, Done: s.Progress.Done, Total: s.Progress.Total,
		Blocked: s.BlockedReason}
}

// detectRules are the thresholds of detection the settings give.
func detectRules(c *config.Config) detect.Rules {
	r := detect.DefaultRules()
	r.StalledAfter = c.Detect.StalledAfter.Duration
	r.LoopRepeats = c.Detect.LoopRepeats
	r.NoProgressCalls = c.Detect.NoProgressCalls
	return r
}
