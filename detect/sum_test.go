package detect

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

func fold(r Rules, obs []Observation) *State {
	var s State
	for _, o := range obs {
		r.Observe(&s, o)
	}
	return &s
}

func TestRules_Sum(t *testing.T) {
	r := DefaultRules()
	const m = time.Minute
	t.Run("a sub-agent looping is its session looping", func(t *testing.T) {
		main := fold(r, seq(Prompt(at(0)), ToolCall(callC, at(time.Second))))
		sub := fold(r, calls(2*time.Second, 4, callA))
		f, _ := r.Sum(main, sub)
		if !f.Has(tally.FlagLooping) || !f.Since(tally.FlagLooping).Equal(at(32*time.Second)) {
			t.Errorf("flags = %s, want looping since the sub-agent's fourth call", detail(f))
		}
	})
	t.Run("a main agent waiting on a working sub-agent is not stalled", func(t *testing.T) {
		main := fold(r, seq(Prompt(at(0)), ToolCall(callC, at(time.Second))))
		sub := fold(r, seq(Prompt(at(2*time.Second)), Output(at(9*m))))
		_, stallAt := r.Sum(main, sub)
		if !stallAt.Equal(at(14 * m)) {
			t.Errorf("stallAt = %v, want 5m after the sub-agent's last output", stallAt)
		}
	})
	t.Run("a sub-agent's last word is not the session's when the main agent went on", func(t *testing.T) {
		main := fold(r, seq(Prompt(at(0)), ToolCall(callC, at(time.Second)), Output(at(3*m)), TurnEnded(at(4*m))))
		sub := fold(r, seq(Prompt(at(2*time.Second)), ToolCall(callA, at(2*m))))
		if _, stallAt := r.Sum(main, sub); !stallAt.IsZero() {
			t.Errorf("stallAt = %v, want none: the main agent ended its turn last", stallAt)
		}
	})
	t.Run("finished and blocked are the main list's", func(t *testing.T) {
		main := fold(r, seq(list(2, 1, 0, 0)))
		sub := fold(r, seq(list(1, 0, 0, time.Second), list(2, 1, 1, 2*time.Second)))
		if f, _ := r.Sum(main, sub); f.Has(tally.FlagFinished) || f.Has(tally.FlagBlocked) {
			t.Errorf("flags = %s, want neither: the sub-agent's list is its own", detail(f))
		}
		if f, _ := r.Sum(sub, main); !f.Has(tally.FlagBlocked) {
			t.Errorf("flags = %s, want blocked when that list is the main one", detail(f))
		}
	})
	t.Run("no files, nothing", func(t *testing.T) {
		if f, stallAt := r.Sum(); !f.Empty() || !stallAt.IsZero() {
			t.Errorf("Sum() = %s, %v", detail(f), stallAt)
		}
	})
}

// TestRules_Sum_anAgentsStallNoticeStallsTheSessionAtOnceUntilWorkFollows:
// the agent's own notice (OpenClaw's idle timeout, its watchdog) stalls
// the session when it is given, not StalledAfter later; work after it
// undoes it; a notice older than the newest work says nothing, and the
// notice survives being stored.
func TestRules_Sum_anAgentsStallNoticeStallsTheSessionAtOnceUntilWorkFollows(t *testing.T) {
	r := DefaultRules()
	s := fold(r, seq(Prompt(at(0)), ToolCall(callA, at(time.Second)), Stalled(at(10*time.Second))))
	if _, stallAt := r.Sum(s); !stallAt.Equal(at(10 * time.Second)) {
		t.Errorf("stallAt = %v, want the notice's time", stallAt)
	}
	var back State
	b, _ := s.MarshalJSON()
	if err := back.UnmarshalJSON(b); err != nil || !back.stalledAt.Equal(at(10*time.Second)) {
		t.Errorf("stored and read back: %v %v", back.stalledAt, err)
	}
	r.Observe(s, ToolCall(callC, at(20*time.Second)))
	if _, stallAt := r.Sum(s); !stallAt.Equal(at(20*time.Second + r.StalledAfter)) {
		t.Errorf("after work: stallAt = %v, want StalledAfter after the work", stallAt)
	}
	late := fold(r, seq(Prompt(at(0)), Stalled(at(time.Second)), ToolCall(callA, at(2*time.Second))))
	if f := r.Flags(late, at(3*time.Second)); f.Has(tally.FlagStalled) {
		t.Error("a notice older than the newest work stalls the session")
	}
}
