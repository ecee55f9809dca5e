package detect

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"

	"pgregory.net/rapid"
)

// maxStateJSON bounds a stored State whatever the session did: every field
// is fixed-size, so this holds for a session of any length.
const maxStateJSON = 700

// TestState_boundedAndSameAsFullHistory checks, over random sessions, that
// the fixed-size State gives exactly the flags the rules give when read off
// the whole history, stays under maxStateJSON bytes, and survives being
// stored.
func TestState_boundedAndSameAsFullHistory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := Rules{
			StalledAfter:    rapid.SampledFrom([]time.Duration{0, time.Minute, 5 * time.Minute}).Draw(t, "stalledAfter"),
			EndedAfter:      rapid.SampledFrom([]time.Duration{0, 30 * time.Minute}).Draw(t, "endedAfter"),
			LoopRepeats:     rapid.SampledFrom([]int{0, 2, 3, 4}).Draw(t, "loopRepeats"),
			NoProgressCalls: rapid.SampledFrom([]int{0, 1, 3, 5}).Draw(t, "noProgressCalls"),
		}
		var s State
		var history []Observation
		now := t0
		steps := rapid.IntRange(1, 150).Draw(t, "steps")
		for range steps {
			now = now.Add(rapid.SampledFrom([]time.Duration{0, time.Second, time.Minute, 4 * time.Minute}).Draw(t, "dt"))
			o := drawObservation(t, now)
			history = append(history, o)
			r.Observe(&s, o)

			at := now.Add(rapid.SampledFrom([]time.Duration{0, 2 * time.Minute, 6 * time.Minute, 40 * time.Minute}).Draw(t, "wait"))
			got, want := r.Flags(&s, at), reference(r, history, at)
			if got != want {
				t.Fatalf("after %d observations, at +%v:\nflags %s\nwant  %s", len(history), at.Sub(now), detail(got), detail(want))
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > maxStateJSON {
				t.Fatalf("state is %d bytes: %s", len(b), b)
			}
			var back State
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, s) {
				t.Fatalf("stored state reads back as %+v (%v), want %+v", back, err, s)
			}
		}
	})
}

func drawObservation(t *rapid.T, at time.Time) Observation {
	switch k := Kind(rapid.IntRange(int(KindOutput), int(KindSeen)).Draw(t, "kind")); k {
	case KindToolCall:
		// Few distinct calls, so that runs and ping-pongs happen.
		return ToolCall(rapid.Uint64Range(1, 3).Draw(t, "fp"), at)
	case KindList:
		total := rapid.IntRange(0, 3).Draw(t, "total")
		open := rapid.IntRange(0, total).Draw(t, "open")
		return ListChanged(ListState{Total: total, Open: open, Stuck: open > 0 && rapid.Bool().Draw(t, "stuck")}, at)
	default:
		return Observation{Kind: k, At: at}
	}
}

// reference reads the flags off the whole history, rule by rule as the
// package documents them, with no state carried between observations. It
// assumes times never go back.
func reference(r Rules, h []Observation, now time.Time) tally.Flags {
	var f tally.Flags
	ended := -1
	for i, o := range h {
		if o.Kind == KindEnded {
			ended = i
		}
	}
	isWork := func(k Kind) bool { return k == KindOutput || k == KindPrompt || k == KindToolCall }
	isStop := func(k Kind) bool { return k == KindNeedsInput || k == KindTurnEnded || k == KindEnded }
	// A sign of work answers what came before it if it is strictly later
	// than every stop before it.
	answers := func(j int) bool {
		if !isWork(h[j].Kind) {
			return false
		}
		for i := range j {
			if isStop(h[i].Kind) && !h[j].At.After(h[i].At) {
				return false
			}
		}
		return true
	}

	// needs_input: the first request after the last answer (and the end).
	from := ended
	for j := ended + 1; j < len(h); j++ {
		if answers(j) {
			from = j
		}
	}
	for j := from + 1; j < len(h); j++ {
		if h[j].Kind == KindNeedsInput {
			f = f.With(tally.FlagNeedsInput, h[j].At)
			break
		}
	}

	// stalled: the newest sign of work is newer than the newest stop, and
	// the newest observation is between StalledAfter and EndedAfter old.
	var lastWork, lastStop time.Time
	for _, o := range h {
		if isWork(o.Kind) {
			lastWork = o.At
		}
		if isStop(o.Kind) {
			lastStop = o.At
		}
	}
	last := h[len(h)-1].At
	if quiet := now.Sub(last); r.StalledAfter > 0 && lastWork.After(lastStop) &&
		quiet >= r.StalledAfter && (r.EndedAfter <= 0 || quiet < r.EndedAfter) {
		f = f.With(tally.FlagStalled, last.Add(r.StalledAfter))
	}

	// looping: over the calls since the end, the condition at each call,
	// and since when it has held without a break.
	var fps []uint64
	var times []time.Time
	for _, o := range h[ended+1:] {
		if o.Kind == KindToolCall {
			fps, times = append(fps, o.Fingerprint), append(times, o.At)
		}
	}
	k := r.LoopRepeats
	loopAt := func(i int) bool {
		if k <= 0 {
			return false
		}
		same := 1
		for j := i - 1; j >= 0 && fps[j] == fps[i]; j-- {
			same++
		}
		alt := 1
		if i > 0 && fps[i-1] != fps[i] {
			for j := i - 1; j >= 0 && fps[j] == fps[i-((i-j)%2)]; j-- {
				alt++
			}
		}
		return same >= k || alt >= 2*k
	}
	if n := len(fps); n > 0 && loopAt(n-1) {
		start := n - 1
		for start > 0 && loopAt(start-1) {
			start--
		}
		f = f.With(tally.FlagLooping, times[start])
	}

	// no_progress: calls since the last list change (or the end), while
	// the last list has items open.
	base, open := ended, 0
	for i, o := range h {
		if o.Kind == KindList {
			open = o.List.Open
			base = max(base, i)
		}
	}
	count := 0
	for _, o := range h[base+1:] {
		if o.Kind == KindToolCall {
			count++
			if r.NoProgressCalls > 0 && count == r.NoProgressCalls && open > 0 {
				f = f.With(tally.FlagNoProgress, o.At)
			}
		}
	}

	// finished and blocked: the trailing run of list changes that say so;
	// an empty list says nothing about finishing.
	var finished, blocked time.Time
	for _, o := range h {
		if o.Kind != KindList {
			continue
		}
		if o.List.Total > 0 {
			if o.List.Open == 0 && finished.IsZero() {
				finished = o.At
			} else if o.List.Open > 0 {
				finished = time.Time{}
			}
		}
		if o.List.Stuck && blocked.IsZero() {
			blocked = o.At
		} else if !o.List.Stuck {
			blocked = time.Time{}
		}
	}
	if !blocked.IsZero() {
		f = f.With(tally.FlagBlocked, blocked)
	}
	if !finished.IsZero() {
		f = f.With(tally.FlagFinished, finished)
	}
	return f
}
