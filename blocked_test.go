package tally_test

import (
	"testing"

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
