package tally_test

import (
	"reflect"
	"testing"

	"github.com/tallyhq/tally"
)

func pending(ev tally.Event) tally.Event { ev.Pending = true; return ev }

func failed(tuid string) tally.Event {
	return tally.Event{Kind: tally.EventCallFailed, ToolUseID: tuid}
}

func succeeded(tuid string) tally.Event {
	return tally.Event{Kind: tally.EventCallSucceeded, ToolUseID: tuid}
}

// TestList_aFailedCallChangesNothing: a call whose result says it failed
// leaves the list as if it had never been made, whatever other calls
// came between it and its result.
func TestList_aFailedCallChangesNothing(t *testing.T) {
	blocked := func(tuid, id, by string) tally.Event {
		return pending(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: tuid, Patch: tally.TaskPatch{ID: id, AddBlockedBy: []string{by}}})
	}
	deleted := pending(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "d", Patch: tally.TaskPatch{ID: "1", Deleted: true}})
	tests := []struct {
		name   string
		events []tally.Event
		want   []string
	}{
		{"a failed snapshot", []tally.Event{pending(snapshot("t1", "a")), succeeded("t1"), pending(snapshot("t2", "a", "b")), failed("t2")}, []string{"a=pending"}},
		{"a failed snapshot before another still waiting, which then fails",
			[]tally.Event{pending(snapshot("t1", "a")), succeeded("t1"), pending(snapshot("t2", "b")), pending(snapshot("t3", "c")), failed("t2"), failed("t3")}, []string{"a=pending"}},
		{"a failed snapshot before another that succeeded",
			[]tally.Event{pending(snapshot("t1", "a")), pending(snapshot("t2", "b")), succeeded("t2"), failed("t1")}, []string{"b=pending"}},
		{"a later snapshot fails, the earlier stands",
			[]tally.Event{pending(snapshot("t1", "a")), pending(snapshot("t2", "b")), failed("t2"), succeeded("t1")}, []string{"a=pending"}},
		{"a failed create", []tally.Event{create("c1", "a"), assign("c1", "1"), create("c2", "b"), failed("c2")}, []string{"a=pending"}},
		{"a failed update", []tally.Event{create("c1", "a"), assign("c1", "1"), pending(update("u1", "1", tally.StatusCompleted)), failed("u1")}, []string{"a=pending"}},
		{"a failed update, another of the task's fields changed since",
			[]tally.Event{create("c1", "a"), assign("c1", "1"), pending(update("u1", "1", tally.StatusCompleted)),
				pending(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "u2", Patch: tally.TaskPatch{ID: "1", Subject: ptr("A")}}), succeeded("u2"), failed("u1")}, []string{"A=pending"}},
		{"a failed delete", []tally.Event{create("c1", "a"), assign("c1", "1"), create("c2", "b"), assign("c2", "2"), blocked("u1", "2", "1"), succeeded("u1"), deleted, failed("d")},
			[]string{"a=pending", "b=pending"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := fold(tt.events...)
			if got := titles(l); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("items = %v, want %v", got, tt.want)
			}
			if len(l.Undo) != 0 {
				t.Errorf("undo kept after every result: %+v", l.Undo)
			}
		})
	}
	t.Run("a failed blocker link is taken back on both tasks", func(t *testing.T) {
		l := fold(create("c1", "a"), assign("c1", "1"), create("c2", "b"), assign("c2", "2"), blocked("u1", "2", "1"), failed("u1"))
		for _, it := range l.Items() {
			if len(it.Blocks)+len(it.BlockedBy) != 0 {
				t.Errorf("%s: blocks %v, blocked by %v; want none", it.Title, it.Blocks, it.BlockedBy)
			}
		}
	})
	t.Run("a failed delete puts the task back with its links", func(t *testing.T) {
		l := fold(create("c1", "a"), assign("c1", "1"), create("c2", "b"), assign("c2", "2"), blocked("u1", "2", "1"), succeeded("u1"), deleted, failed("d"))
		items := l.Items()
		if items[0].ID != "1" || !reflect.DeepEqual(items[0].Blocks, []string{"2"}) || !reflect.DeepEqual(items[1].BlockedBy, []string{"1"}) {
			t.Errorf("items = %+v", items)
		}
	})
	t.Run("a resync is the list after every call before it", func(t *testing.T) {
		l := fold(create("c1", "a"), assign("c1", "1"), pending(update("u1", "1", tally.StatusCompleted)),
			tally.Event{Kind: tally.EventTaskResync, ToolUseID: "r", Items: []tally.Item{{ID: "1", Title: "a", Status: tally.StatusCompleted}}}, failed("u1"))
		if got := titles(l); !reflect.DeepEqual(got, []string{"a=completed"}) {
			t.Errorf("items = %v", got)
		}
	})
	t.Run("what is kept is bounded", func(t *testing.T) {
		var evs []tally.Event
		for i := range 3 * tally.MaxUndo {
			evs = append(evs, pending(snapshot(string(rune('a'+i)), "x")))
		}
		if l := fold(evs...); len(l.Undo) != tally.MaxUndo {
			t.Errorf("%d kept, want %d", len(l.Undo), tally.MaxUndo)
		}
	})
}
