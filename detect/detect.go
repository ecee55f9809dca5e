package detect

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tallyhq/tally"
)

// Rules are the thresholds of detection. A zero threshold turns its
// detector off.
type Rules struct {
	// StalledAfter: a working session silent this long is stalled.
	StalledAfter time.Duration
	// EndedAfter: a session silent this long is over, no longer stalled.
	EndedAfter time.Duration
	// LoopRepeats: one call this many times in a row, or two calls
	// alternating until each has come this many times, is a loop.
	LoopRepeats int
	// NoProgressCalls: this many tool calls with no list change, items
	// left, is no progress.
	NoProgressCalls int
}

// DefaultRules are the defaults the settings file documents.
func DefaultRules() Rules {
	return Rules{StalledAfter: DefaultStalledAfter, EndedAfter: tally.EndedAfter, LoopRepeats: DefaultLoopRepeats, NoProgressCalls: DefaultNoProgressCalls}
}

// The thresholds of DefaultRules (the settings' [detect] defaults).
const (
	DefaultStalledAfter    = 5 * time.Minute
	DefaultLoopRepeats     = 4
	DefaultNoProgressCalls = 30
)

// maxCount is where counters stop: far above any threshold, far below
// overflow.
const maxCount = 1 << 30

// State is what detection keeps of one session: a fixed-size summary of its
// recent history, never the history. Its zero value is a session nothing
// has been seen of.
type State struct {
	last   time.Time // newest observation
	workAt time.Time // newest sign of work
	stopAt time.Time // newest turn end, request for input, or end
	needs  time.Time // since when input is needed; zero if not

	calls     [2]uint64 // the newest distinct fingerprints, newest first
	known     uint8     // how many of calls are set
	same      uint32    // run of the newest call repeated
	alt       uint32    // run of two calls alternating, ending now
	loopSince time.Time

	sinceChange     uint32 // tool calls since the list changed
	noProgressSince time.Time

	list          ListState
	finishedSince time.Time
	blockedSince  time.Time

	stalledAt time.Time // the agent's own stall notice, until work follows
}

// Observe folds one observation into s. Observations may arrive a little
// out of order (a hook's notification after the log line that followed
// it): a request for input older than the newest work is already answered.
func (r Rules) Observe(s *State, o Observation) {
	if o.At.After(s.last) {
		s.last = o.At
	}
	switch o.Kind {
	case KindOutput, KindPrompt:
		s.work(o.At)
	case KindToolCall:
		s.work(o.At)
		r.call(s, o.Fingerprint, o.At)
	case KindList:
		s.listChanged(o.List, o.At)
	case KindNeedsInput:
		if s.workAt.After(o.At) {
			return
		}
		s.stop(o.At)
		if s.needs.IsZero() {
			s.needs = o.At
		}
	case KindTurnEnded:
		s.stop(o.At)
	case KindSeen:
	case KindStalled:
		if !s.workAt.After(o.At) && s.stalledAt.IsZero() {
			s.stalledAt = o.At
		}
	case KindEnded:
		s.stop(o.At)
		s.needs = time.Time{}
		s.calls, s.known, s.same, s.alt, s.loopSince = [2]uint64{}, 0, 0, 0, time.Time{}
		s.sinceChange, s.noProgressSince = 0, time.Time{}
	}
}

func (s *State) work(at time.Time) {
	if at.After(s.workAt) {
		s.workAt = at
	}
	if at.After(s.stalledAt) {
		s.stalledAt = time.Time{}
	}
	if s.working() {
		s.needs = time.Time{}
	}
}

func (s *State) stop(at time.Time) {
	if at.After(s.stopAt) {
		s.stopAt = at
	}
}

// working: the newest sign of work is newer than the newest stop. At the
// same instant the stop wins: a request for input logged with the call
// that raised it still stands.
func (s *State) working() bool { return s.workAt.After(s.stopAt) }

func (r Rules) call(s *State, fp uint64, at time.Time) {
	switch {
	case s.known >= 1 && fp == s.calls[0]:
		s.same = min(s.same+1, maxCount)
		s.alt = 1
	case s.known >= 2 && fp == s.calls[1]:
		s.same = 1
		s.alt = min(s.alt+1, maxCount)
		s.calls[0], s.calls[1] = fp, s.calls[0]
	default:
		s.same = 1
		s.alt = uint32(min(s.known, 1)) + 1
		s.calls[0], s.calls[1] = fp, s.calls[0]
		s.known = min(s.known+1, 2)
	}
	k := uint32(max(r.LoopRepeats, 0))
	if k > 0 && (s.same >= k || s.alt >= 2*k) {
		if s.loopSince.IsZero() {
			s.loopSince = at
		}
	} else {
		s.loopSince = time.Time{}
	}
	s.sinceChange = min(s.sinceChange+1, maxCount)
	if n := r.NoProgressCalls; n > 0 && s.sinceChange >= uint32(min(n, maxCount)) && s.noProgressSince.IsZero() {
		s.noProgressSince = at
	}
}

func (s *State) listChanged(l ListState, at time.Time) {
	s.sinceChange, s.noProgressSince = 0, time.Time{}
	s.list = l
	switch {
	case l.Total > 0 && l.Open <= 0:
		if s.finishedSince.IsZero() {
			s.finishedSince = at
		}
	case l.Open > 0:
		s.finishedSince = time.Time{}
	}
	if l.Stuck {
		if s.blockedSince.IsZero() {
			s.blockedSince = at
		}
	} else {
		s.blockedSince = time.Time{}
	}
}

// Flags are the session's flags at time now.
func (r Rules) Flags(s *State, now time.Time) tally.Flags {
	f := s.flags()
	switch {
	case !s.stalledAt.IsZero():
		f = f.With(tally.FlagStalled, s.stalledAt)
	case r.stalled(s, now):
		f = f.With(tally.FlagStalled, s.last.Add(r.StalledAfter))
	}
	return f
}

// flags are the flags that time alone does not change: all but stalled.
func (s *State) flags() tally.Flags {
	var f tally.Flags
	add(&f, tally.FlagNeedsInput, s.needs)
	add(&f, tally.FlagLooping, s.loopSince)
	if s.list.Open > 0 {
		add(&f, tally.FlagNoProgress, s.noProgressSince)
	}
	add(&f, tally.FlagBlocked, s.blockedSince)
	add(&f, tally.FlagFinished, s.finishedSince)
	return f
}

// add puts fl in the set if since is set.
func add(f *tally.Flags, fl tally.Flag, since time.Time) {
	if !since.IsZero() {
		*f = f.With(fl, since)
	}
}

func (r Rules) stalled(s *State, now time.Time) bool {
	if r.StalledAfter <= 0 || !s.working() {
		return false
	}
	quiet := now.Sub(s.last)
	return quiet >= r.StalledAfter && (r.EndedAfter <= 0 || quiet < r.EndedAfter)
}

// Due is the next time after now at which s's flags change with no new
// observation (a working session becoming stalled, a stalled one ending),
// zero if none will: a caller sleeps until then instead of polling.
func (r Rules) Due(s *State, now time.Time) time.Time {
	if r.StalledAfter <= 0 || !s.working() {
		return time.Time{}
	}
	if t := s.last.Add(r.StalledAfter); t.After(now) {
		return t
	}
	if r.EndedAfter > 0 {
		if t := s.last.Add(r.EndedAfter); t.After(now) {
			return t
		}
	}
	return time.Time{}
}

// stateJSON is State as stored. Its names are short: it is stored once per
// session.
type stateJSON struct {
	Last            time.Time `json:"last,omitzero"`
	WorkAt          time.Time `json:"work,omitzero"`
	StopAt          time.Time `json:"stop,omitzero"`
	Needs           time.Time `json:"needs,omitzero"`
	Calls           []uint64  `json:"calls,omitempty"`
	Same            uint32    `json:"same,omitempty"`
	Alt             uint32    `json:"alt,omitempty"`
	LoopSince       time.Time `json:"loop,omitzero"`
	SinceChange     uint32    `json:"sinceChange,omitempty"`
	NoProgressSince time.Time `json:"noProgress,omitzero"`
	List            ListState `json:"list,omitzero"`
	FinishedSince   time.Time `json:"finished,omitzero"`
	BlockedSince    time.Time `json:"blocked,omitzero"`
	StalledAt       time.Time `json:"stalled,omitzero"`
}

func (s State) MarshalJSON() ([]byte, error) {
	return json.Marshal(stateJSON{
		Last: s.last, WorkAt: s.workAt, StopAt: s.stopAt, Needs: s.needs,
		Calls: s.calls[:s.known], Same: s.same, Alt: s.alt, LoopSince: s.loopSince,
		SinceChange: s.sinceChange, NoProgressSince: s.noProgressSince,
		List: s.list, FinishedSince: s.finishedSince, BlockedSince: s.blockedSince, StalledAt: s.stalledAt,
	})
}

// UnmarshalJSON reads a stored State; one that could not have been written
// (more than two calls, counters past their bound) is an error.
func (s *State) UnmarshalJSON(b []byte) error {
	var w stateJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if len(w.Calls) > len(s.calls) || w.Same > maxCount || w.Alt > maxCount || w.SinceChange > maxCount {
		return tally.Errorf(tally.CodeInvalid, "detect.State", "not a stored state: %s", fmt.Sprintf("%.80s", b))
	}
	*s = State{
		last: w.Last, workAt: w.WorkAt, stopAt: w.StopAt, needs: w.Needs,
		known: uint8(len(w.Calls)), same: w.Same, alt: w.Alt, loopSince: w.LoopSince,
		sinceChange: w.SinceChange, noProgressSince: w.NoProgressSince,
		list: w.List, finishedSince: w.FinishedSince, blockedSince: w.BlockedSince, stalledAt: w.StalledAt,
	}
	copy(s.calls[:], w.Calls)
	return nil
}
