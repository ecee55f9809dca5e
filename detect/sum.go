package detect

import (
	"time"

	"github.com/tallyhq/tally"
)

// Sum is what detection says of a whole session, from the States of its
// files — the main agent's log first, then its sub-agents' — as of their
// newest observations: its flags but stalled, and stallAt, when it counts
// as stalled if nothing new comes (zero if it is not working). Time alone
// changes nothing else, so a caller stores the two and derives the flags
// at any later time.
//
//   - needs_input, looping and no_progress are the session's if any of its
//     agents has them, since the earliest: a sub-agent going round in
//     circles is its session going round in circles.
//   - blocked and finished are the main agent's list's.
//   - stalled is the session's as a whole: it is working when the newest
//     sign of work in any file is newer than the newest stop in any, and
//     it stalls StalledAfter after the newest observation in any. A main
//     agent waiting on a sub-agent that works is not stalled. A stall
//     notice of the agent's own (KindStalled) stalls it at once, until
//     work follows.
func (r Rules) Sum(states ...*State) (f tally.Flags, stallAt time.Time) {
	if len(states) == 0 {
		return f, time.Time{}
	}
	var whole State
	var noticed time.Time // the earliest stall notice still standing
	for i, s := range states {
		if !s.stalledAt.IsZero() && (noticed.IsZero() || s.stalledAt.Before(noticed)) {
			noticed = s.stalledAt
		}
		whole.last = later(whole.last, s.last)
		whole.workAt = later(whole.workAt, s.workAt)
		whole.stopAt = later(whole.stopAt, s.stopAt)
		sf := s.flags()
		for _, fl := range [...]tally.Flag{tally.FlagNeedsInput, tally.FlagLooping, tally.FlagNoProgress} {
			if sf.Has(fl) && (!f.Has(fl) || sf.Since(fl).Before(f.Since(fl))) {
				f = f.With(fl, sf.Since(fl))
			}
		}
		if i == 0 {
			add(&f, tally.FlagBlocked, s.blockedSince)
			add(&f, tally.FlagFinished, s.finishedSince)
		}
	}
	if r.StalledAfter > 0 && whole.working() {
		stallAt = whole.last.Add(r.StalledAfter)
	}
	if !noticed.IsZero() && !whole.workAt.After(noticed) {
		stallAt = noticed // the agent said so: stalled now, not StalledAfter later
	}
	return f, stallAt
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
