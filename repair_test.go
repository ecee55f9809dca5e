package tally_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// A list of four with one bad byte in one item's text is still a list of
// four: the bad byte becomes U+FFFD, and the repair is counted and said.
func TestFileState_Apply_TextThatIsNotUTF8IsRepairedNotDropped(t *testing.T) {
	f := &tally.FileState{Path: "s.jsonl"}
	ev := snapshot("t1", "one", "tw\xffo", "three", "four")
	f.Apply(ev)
	items := f.Lists[""].Items()
	if len(items) != 4 || items[1].Title != "tw\uFFFDo" {
		t.Fatalf("items = %+v", items)
	}
	if ev.Items[1].Title != "tw\xffo" {
		t.Error("the adapter's own items were changed in place")
	}
	if f.Stats.Repaired != 1 {
		t.Errorf("repaired = %d, want 1", f.Stats.Repaired)
	}
	d, ok := f.TakeRepairs(42)
	if !ok || d.Path != "s.jsonl" || d.Offset != 42 || !strings.Contains(d.Msg, "UTF-8") {
		t.Errorf("diagnostic = %+v, %v", d, ok)
	}
	if _, again := f.TakeRepairs(42); again {
		t.Error("a repair was reported twice")
	}
}

// A time far in the future would show a session working, last active now,
// until that time comes: it is taken as the time the line was read.
func TestFileState_Apply_AFutureTimeIsClampedToTheTimeItWasRead(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	f := &tally.FileState{Path: "s.jsonl", Now: func() time.Time { return now }}
	f.Apply(tally.Event{Kind: tally.EventMeta, At: time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), Meta: tally.Meta{Signal: tally.SignalWorking}})
	if !f.LastAt.Equal(now) || !f.StartedAt.Equal(now) {
		t.Fatalf("started %v, last %v, want both %v", f.StartedAt, f.LastAt, now)
	}
	if f.Stats.Repaired != 1 {
		t.Errorf("repaired = %d, want 1", f.Stats.Repaired)
	}
	if d, ok := f.TakeRepairs(0); !ok || !strings.Contains(d.Msg, "9999") {
		t.Errorf("diagnostic = %+v", d)
	}
	// A clock a little ahead of the reader's is not a repair.
	soon := now.Add(tally.MaxClockSkew / 2)
	f.Apply(tally.Event{Kind: tally.EventMeta, At: soon})
	if !f.LastAt.Equal(soon) || f.Stats.Repaired != 1 {
		t.Errorf("last %v repaired %d: a time within the clock skew was changed", f.LastAt, f.Stats.Repaired)
	}
}
