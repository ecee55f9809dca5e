package tally_test

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

func TestBlocked(t *testing.T) {
	item := func(id, title string, st tally.Status, by ...string) tally.Item {
		return tally.Item{ID: id, Title: title, Status: st, BlockedBy: by}
	}
	write := item("1", "Write greeting module", tally.StatusInProgress)
	test := item("2", "Add unit test", tally.StatusPending)
	readme := item("3", "Update README", tally.StatusPending, "2")
	for _, tc := range []struct {
		name    string
		items   []tally.Item
		markers []tally.Marker
		want    string // "" when not blocked
	}{
		{"aDependencyOnAnOpenTaskIsOrderNotBlocked", []tally.Item{write, test, readme}, nil, ""},
		{"aPendingItemNothingHoldsUpLeavesTheAgentAWayOn",
			[]tally.Item{item("1", "a", tally.StatusCompleted), test, readme}, nil, ""},
		{"theFocusWaitingOnAnOpenItemIsBlocked",
			[]tally.Item{test, item("3", "Update README", tally.StatusInProgress, "2")}, nil, "Update README waits on Add unit test"},
		{"everythingLeftWaitingWithNothingInProgressIsBlocked",
			[]tally.Item{item("1", "a", tally.StatusCompleted), item("2", "b", tally.StatusPending, "3"), item("3", "c", tally.StatusPending, "2")}, nil,
			"every item left waits: b waits on c"},
		{"aBlockerDoneOrGoneHoldsNothingUp",
			[]tally.Item{item("2", "b", tally.StatusCompleted), item("3", "c", tally.StatusPending, "2", "9")}, nil, ""},
		{"anItemTheAgentSetBlockedIsBlockedWithItsReason",
			[]tally.Item{write, {ID: "2", Title: "Add unit test", Status: tally.StatusBlocked, Description: "Waiting for a decision.\nmore"}}, nil,
			"Add unit test: Waiting for a decision."},
		{"anItemSetBlockedWithoutAReasonSaysSo",
			[]tally.Item{{Title: "Deploy", Status: tally.StatusBlocked}}, nil, "Deploy is blocked"},
		{"aBlockedMarkerIsTheAgentSayingSo",
			[]tally.Item{write}, []tally.Marker{{Task: "T001", Step: "S2", Verb: "blocked", Reason: "no API key"}}, "T001.S2 blocked: no API key"},
		{"aLaterMarkerOfTheSameStepLiftsIt",
			[]tally.Item{write}, []tally.Marker{{Task: "T001", Step: "S2", Verb: "blocked"}, {Task: "T001", Step: "S2", Verb: "done"}}, ""},
		{"anEmptyListIsNotBlocked", nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why, ok := tally.Blocked(tc.items, tc.markers)
			if ok != (tc.want != "") || why != tc.want {
				t.Errorf("Blocked = %q, %v; want %q", why, ok, tc.want)
			}
		})
	}
}

// TestRecord_aQuestionCountsOnlyOnceTheTurnIsOver: a reply ending on a
// question is the agent asking its person only once its turn is over: at
// once when the agent said so (TurnOver), else once TurnGrace has passed
// with nothing new; NextChange says when, so surfaces redraw then.
func TestRecord_aQuestionCountsOnlyOnceTheTurnIsOver(t *testing.T) {
	last := time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)
	var f tally.FileState
	f.Apply(tally.Event{Kind: tally.EventMeta, At: last, Meta: tally.Meta{Signal: tally.SignalAsking}})
	rec := tally.Merge([]*tally.FileState{&f})
	soon, later := last.Add(2*time.Second), last.Add(tally.TurnGrace)
	if s := rec.Session(soon); s.Activity != tally.ActivityWorking || s.Flags.Has(tally.FlagNeedsInput) {
		t.Errorf("2 s after a tentative question: %v %q, want working", s.Activity, s.Flags)
	}
	if at := rec.NextChange(soon); !at.Equal(later) {
		t.Errorf("NextChange = %v, want %v", at, later)
	}
	if s := rec.Session(later); s.Activity != tally.ActivityNeedsInput || !s.Flags.Has(tally.FlagNeedsInput) {
		t.Errorf("after the grace: %v %q, want needs input", s.Activity, s.Flags)
	}
	f.Apply(tally.Event{Kind: tally.EventMeta, At: last, Meta: tally.Meta{Signal: tally.SignalAsking, TurnOver: true}})
	rec = tally.Merge([]*tally.FileState{&f})
	if s := rec.Session(soon); s.Activity != tally.ActivityNeedsInput || !s.Flags.Has(tally.FlagNeedsInput) {
		t.Errorf("a question the agent said ends its turn: %v %q, want needs input at once", s.Activity, s.Flags)
	}
	if at := rec.NextChange(soon); !at.IsZero() {
		t.Errorf("NextChange = %v, want none", at)
	}
}
