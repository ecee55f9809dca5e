package tally_test

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// A session's Tally list is the session's work too: its progress counts
// both lists, and its current step is the Tally list's when its own list
// has none.
func TestRecord_Session_theTallyListCountsInTheSessionsProgress(t *testing.T) {
	key := tally.TallyListPrefix + "claude-0b9f7c1e"
	r := tally.Record{ID: "0b9f7c1e", Agent: claude.Agent, Lists: map[string][]tally.Item{
		"":  {{Title: "Write greet.py", Status: tally.StatusCompleted}},
		key: {{ID: "1", Title: "Review", Status: tally.StatusInProgress, ActiveForm: "Reviewing"}, {ID: "2", Title: "Publish", Status: tally.StatusPending}},
	}}
	s := r.Session(time.Now())
	if p := s.Progress; p.Done != 1 || p.Total != 3 || p.InProgress != 1 || p.Current == nil || p.Current.Label() != "Reviewing" {
		t.Errorf("progress %+v", p)
	}
	if len(s.SubAgents) != 1 || !s.SubAgents[0].Tally || s.SubAgents[0].Progress.Total != 2 {
		t.Errorf("sub-lists %+v", s.SubAgents)
	}
}
