package tally_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

func ptr[T any](v T) *T { return &v }

func create(tuid, subject string) tally.Event {
	return tally.Event{Kind: tally.EventTaskCreate, ToolUseID: tuid, Patch: tally.TaskPatch{Subject: ptr(subject), ActiveForm: ptr(subject + "ing")}}
}

func assign(tuid, id string) tally.Event {
	return tally.Event{Kind: tally.EventTaskAssign, ToolUseID: tuid, Patch: tally.TaskPatch{ID: id}}
}

func update(tuid, id string, st tally.Status) tally.Event {
	return tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: tuid, Patch: tally.TaskPatch{ID: id, Status: &st}}
}

func snapshot(tuid string, titles ...string) tally.Event {
	ev := tally.Event{Kind: tally.EventSnapshot, ToolUseID: tuid}
	for _, t := range titles {
		ev.Items = append(ev.Items, tally.Item{Title: t, Status: tally.StatusPending})
	}
	return ev
}

func fold(events ...tally.Event) *tally.List {
	var l tally.List
	for _, ev := range events {
		l.Apply(ev)
	}
	return &l
}

func titles(l *tally.List) []string {
	var out []string
	for _, it := range l.Items() {
		out = append(out, it.Title+"="+it.StatusWord())
	}
	return out
}

// The edge cases of folding todo and task events, one subtest each.
func TestList_Apply_EdgeCases(t *testing.T) {
	t.Run("TodoWrite with 0 items clears the list", func(t *testing.T) {
		l := fold(snapshot("t1", "a", "b"), snapshot("t2"))
		if l.Len() != 0 {
			t.Fatalf("items = %v, want none", titles(l))
		}
	})
	t.Run("TaskCreate with no matching tool_result stays with no id, still displayed", func(t *testing.T) {
		l := fold(create("c1", "Write code"))
		items := l.Items()
		if len(items) != 1 || items[0].ID != "" || items[0].Status != tally.StatusPending {
			t.Fatalf("items = %+v", items)
		}
	})
	t.Run("TaskUpdate for unknown task id is ignored and counted", func(t *testing.T) {
		l := fold(create("c1", "a"), assign("c1", "1"), update("u1", "9", tally.StatusCompleted))
		if got := titles(l); !reflect.DeepEqual(got, []string{"a=pending"}) {
			t.Fatalf("items = %v", got)
		}
		if l.Orphans != 1 {
			t.Errorf("orphans = %d, want 1", l.Orphans)
		}
	})
	t.Run("replay from offset 0: dedup guard skips already-seen TaskCreates", func(t *testing.T) {
		evs := []tally.Event{create("c1", "a"), assign("c1", "1"), create("c2", "b"), assign("c2", "2"), update("u1", "1", tally.StatusInProgress)}
		once := fold(evs...)
		twice := fold(append(evs, evs...)...)
		if !reflect.DeepEqual(once.Items(), twice.Items()) {
			t.Fatalf("replayed = %v, want %v", titles(twice), titles(once))
		}
	})
	t.Run("multiple TodoWrites: last one wins", func(t *testing.T) {
		l := fold(snapshot("t1", "a", "b", "c"), snapshot("t2", "d"))
		if got := titles(l); !reflect.DeepEqual(got, []string{"d=pending"}) {
			t.Fatalf("items = %v", got)
		}
	})
	t.Run("deleted is removed, not completed", func(t *testing.T) {
		del := tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "u1", Patch: tally.TaskPatch{ID: "1", Deleted: true}}
		l := fold(create("c1", "a"), assign("c1", "1"), create("c2", "b"), assign("c2", "2"), del)
		if got := titles(l); !reflect.DeepEqual(got, []string{"b=pending"}) {
			t.Fatalf("items = %v, want only b", got)
		}
		p := tally.ProgressOf(tally.DeriveBlocked(l.Items()))
		if p.Done != 0 || p.Total != 1 {
			t.Errorf("progress = %d/%d, want 0/1: a deleted task must not inflate +N done", p.Done, p.Total)
		}
	})
	t.Run("session ends with running tasks: tasks show last known status", func(t *testing.T) {
		l := fold(create("c1", "a"), assign("c1", "1"), update("u1", "1", tally.StatusInProgress))
		if got := titles(l); !reflect.DeepEqual(got, []string{"a=in_progress"}) {
			t.Fatalf("items = %v", got)
		}
	})
	t.Run("ids arriving out of order link by tool_use_id, not position", func(t *testing.T) {
		l := fold(create("c1", "a"), create("c2", "b"), assign("c2", "2"), assign("c1", "1"), update("u", "2", tally.StatusCompleted))
		if got := titles(l); !reflect.DeepEqual(got, []string{"a=pending", "b=completed"}) {
			t.Fatalf("items = %v", got)
		}
	})
	t.Run("todos and tasks show as one list, todos first", func(t *testing.T) {
		l := fold(create("c1", "task"), snapshot("t1", "todo"))
		if got := titles(l); !reflect.DeepEqual(got, []string{"todo=pending", "task=pending"}) {
			t.Fatalf("items = %v", got)
		}
	})
}

func TestList_Apply_Dependencies(t *testing.T) {
	blockedBy := tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "d1", Patch: tally.TaskPatch{ID: "2", AddBlockedBy: []string{"1"}}}
	l := fold(create("c1", "db"), assign("c1", "1"), create("c2", "api"), assign("c2", "2"), blockedBy)
	items := l.Items()
	if !reflect.DeepEqual(items[0].Blocks, []string{"2"}) || !reflect.DeepEqual(items[1].BlockedBy, []string{"1"}) {
		t.Fatalf("blockers not kept both ways: %+v", items)
	}
	if v := tally.DeriveBlocked(items); !v[1].Blocked || v[0].Blocked {
		t.Fatalf("blocked = %v %v, want false true", v[0].Blocked, v[1].Blocked)
	}
	// Blocked is derived: when a blocker completes, its dependant is
	// unblocked with no event of its own.
	l.Apply(update("u1", "1", tally.StatusCompleted))
	if v := tally.DeriveBlocked(l.Items()); v[1].Blocked {
		t.Fatal("completing the blocker did not unblock its dependant")
	}
	// Claude Code drops a deleted task's id from the others' blockers.
	l.Apply(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "x", Patch: tally.TaskPatch{ID: "1", Deleted: true}})
	if got := l.Items()[0].BlockedBy; len(got) != 0 {
		t.Fatalf("blockedBy after deleting the blocker = %v", got)
	}
}

func TestList_Apply_Resync(t *testing.T) {
	// A TaskList result is a full snapshot: it restores a list whose
	// events were partly missed, and keeps what only the events carried.
	l := fold(create("c1", "a"), assign("c1", "1"), create("c2", "lost"))
	l.Apply(tally.Event{Kind: tally.EventTaskResync, ToolUseID: "r1", Items: []tally.Item{
		{ID: "1", Title: "a", Status: tally.StatusCompleted},
		{ID: "3", Title: "c", Status: tally.StatusInProgress, BlockedBy: []string{"1"}},
	}})
	items := l.Items()
	if got := titles(l); !reflect.DeepEqual(got, []string{"a=completed", "c=in_progress", "lost=pending"}) {
		t.Fatalf("items = %v", got)
	}
	if items[0].ActiveForm != "aing" {
		t.Errorf("activeForm lost in resync: %+v", items[0])
	}
	if !reflect.DeepEqual(items[0].Blocks, []string{"3"}) {
		t.Errorf("blocks not derived from the snapshot's blockedBy: %+v", items[0])
	}
	// The create whose id was unknown gets its id later: it is the same task.
	l.Apply(assign("c2", "3"))
	if got := titles(l); !reflect.DeepEqual(got, []string{"a=completed", "c=in_progress"}) {
		t.Fatalf("after late assign: %v", got)
	}
}

func TestList_Apply_Merge(t *testing.T) {
	// Hermes merge=true: "updates by id, changing only the fields provided,
	// and appends unknown ids".
	l := fold(tally.Event{Kind: tally.EventSnapshot, Items: []tally.Item{{ID: "a", Title: "one", Status: tally.StatusPending}}})
	l.Apply(tally.Event{Kind: tally.EventMerge, Items: []tally.Item{
		{ID: "a", Status: tally.StatusCompleted},
		{ID: "b", Title: "two", Status: tally.StatusPending},
		{Title: "no id", Status: tally.StatusPending},
	}})
	if got := titles(l); !reflect.DeepEqual(got, []string{"one=completed", "two=pending"}) {
		t.Fatalf("items = %v", got)
	}
}

func TestProgressOf(t *testing.T) {
	items := []tally.Item{
		{Title: "a", Status: tally.StatusCompleted},
		{Title: "b", Status: tally.StatusInProgress, ActiveForm: "Doing b"},
		{Title: "c", Status: tally.StatusCancelled},
		{Title: "d", Status: tally.StatusUnknown, RawStatus: "waiting"},
	}
	p := tally.ProgressOf(tally.DeriveBlocked(items))
	if p.Done != 1 || p.Total != 3 || p.Current == nil || p.Current.Label() != "Doing b" {
		t.Fatalf("progress = %+v", p)
	}
	if w := items[3].StatusWord(); w != "waiting" {
		t.Errorf("unknown status shows %q, want the agent's word", w)
	}
}

func TestDeriveActivity(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		sig  tally.Signal
		ago  time.Duration
		want tally.Activity
	}{
		{"tool call a moment ago is working", tally.SignalWorking, 10 * time.Second, tally.ActivityWorking},
		{"working but silent is idle", tally.SignalWorking, 5 * time.Minute, tally.ActivityIdle},
		{"turn ended waits for the user", tally.SignalWaiting, 10 * time.Minute, tally.ActivityNeedsInput},
		{"silent for an hour has ended", tally.SignalWaiting, time.Hour, tally.ActivityEnded},
		{"explicit end", tally.SignalEnded, time.Second, tally.ActivityEnded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tally.DeriveActivity(tt.sig, now.Add(-tt.ago), now); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseStatus(t *testing.T) {
	for word, want := range map[string]tally.Status{
		"pending": tally.StatusPending, "in_progress": tally.StatusInProgress, "completed": tally.StatusCompleted,
		"cancelled": tally.StatusCancelled, "canceled": tally.StatusCancelled, "blocked": tally.StatusBlocked, "failed": tally.StatusFailed,
	} {
		if got, ok := tally.ParseStatus(word); !ok || got != want {
			t.Errorf("ParseStatus(%q) = %v, %v", word, got, ok)
		}
	}
	if _, ok := tally.ParseStatus("deleted"); ok {
		t.Error(`"deleted" parsed as a status: it means removal, not a state`)
	}
}

// A title is data: it is kept whole, and only a surface cuts it, to the
// room it has. MaxTitleRunes bounds what one prompt can make the store keep.
func TestPromptTitle_IsKeptWholeNotCutForDisplay(t *testing.T) {
	sentence := "Create greet.py with a greet(name) function, add a test and document it in the README. Track the work with tasks."
	long := strings.Repeat("é", tally.MaxTitleRunes+100)
	for in, want := range map[string]string{
		"  Fix the login bug  ":     "Fix the login bug",
		sentence:                    sentence,
		"Refactor\nthe second line": "Refactor …",
		long:                        strings.Repeat("é", tally.MaxTitleRunes-1) + "…",
		"bad \xff byte":             "bad \xff byte", // for the fold to repair and count
		strings.Repeat("\xff", tally.MaxTitleRunes+1): strings.Repeat("\xff", tally.MaxTitleRunes-1) + "…",
		"": "",
	} {
		if got := tally.PromptTitle(in); got != want {
			t.Errorf("PromptTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// The robustness properties of the fold that the edge cases above do not
// already name.
func TestList_Apply_RobustnessProperties(t *testing.T) {
	t.Run("an id assigned before its TaskCreate is read still links the two", func(t *testing.T) {
		l := fold(assign("c1", "7"), create("c1", "late create"), update("u", "7", tally.StatusCompleted))
		if got := titles(l); !reflect.DeepEqual(got, []string{"late create=completed"}) {
			t.Fatalf("items = %v", got)
		}
		if len(l.Early) != 0 {
			t.Errorf("early ids kept after use: %v", l.Early)
		}
	})
	t.Run("no unbounded accumulation: deleted tasks leave nothing behind but their call ids", func(t *testing.T) {
		var evs []tally.Event
		for i := range 200 {
			id := fmt.Sprint(i)
			evs = append(evs, create("c"+id, "t"+id), assign("c"+id, id),
				tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "d" + id, Patch: tally.TaskPatch{ID: id, Deleted: true}})
		}
		l := fold(evs...)
		if l.Len() != 0 || len(l.Tasks) != 0 {
			t.Fatalf("%d tasks left after deleting all", l.Len())
		}
	})
	t.Run("watcher overflow recovery: a catch-up re-read applies nothing twice", func(t *testing.T) {
		evs := []tally.Event{create("c1", "a"), assign("c1", "1"),
			{Kind: tally.EventTaskUpdate, ToolUseID: "b", Patch: tally.TaskPatch{ID: "1", AddBlockedBy: []string{"2"}}}}
		l := fold(append(evs, evs...)...)
		if got := l.Items()[0].BlockedBy; len(got) != 1 {
			t.Fatalf("blockedBy = %v after a re-read", got)
		}
	})
}

// TestList_Apply_DedupMemoryIsBounded: a re-read starts from the committed
// offset with the state committed with it, and a file that shrank is
// folded again from scratch, so the fold never needs every tool-call id a
// file ever held: only the newest, for a line written or read twice in a
// row. A session of twenty thousand calls keeps what a session of one does.
func TestList_Apply_DedupMemoryIsBounded(t *testing.T) {
	var l tally.List
	for i := range 20_000 {
		l.Apply(snapshot(fmt.Sprintf("toolu_%08d", i), fmt.Sprintf("step %d", i)))
	}
	js, err := json.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) > 4<<10 {
		t.Fatalf("a list of 1 item after 20,000 calls saves as %d bytes: the dedup memory grows with history", len(js))
	}
	t.Run("the newest call applied again changes nothing", func(t *testing.T) {
		l.Apply(snapshot("toolu_00019998", "step 19998"))
		if got := titles(&l); !reflect.DeepEqual(got, []string{"step 19999=pending"}) {
			t.Fatalf("items = %v: a line read twice in a row went back a step", got)
		}
	})
	t.Run("a task created long ago is still one task when its create comes again", func(t *testing.T) {
		var l tally.List
		l.Apply(create("c0", "first"))
		l.Apply(assign("c0", "1"))
		for i := range 1000 {
			l.Apply(update(fmt.Sprint("u", i), "1", tally.StatusInProgress))
		}
		l.Apply(create("c0", "first"))
		if l.Len() != 1 {
			t.Fatalf("%d tasks: a create applied again made a second one", l.Len())
		}
	})
}

// TestList_Apply_IDsForCreatesThatNeverComeAreBounded: a result may report
// a task id before its TaskCreate call is read, and the id is kept for the
// create. A create that never comes (a log cut short, results without
// their calls) must not make the saved state grow with every such id:
// only the newest are kept, and an id whose create never came is no task.
func TestList_Apply_IDsForCreatesThatNeverComeAreBounded(t *testing.T) {
	var l tally.List
	for i := range 10_000 {
		l.Apply(assign(fmt.Sprint("c", i), fmt.Sprint(i)))
	}
	js, err := json.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) > 4<<10 {
		t.Fatalf("after 10,000 results without their calls the list saves as %d bytes: it keeps every id", len(js))
	}
	t.Run("the newest id still finds its late create", func(t *testing.T) {
		l.Apply(create("c9999", "late"))
		l.Apply(update("u1", "9999", tally.StatusCompleted))
		if got := titles(&l); !reflect.DeepEqual(got, []string{"late=completed"}) {
			t.Fatalf("items = %v", got)
		}
	})
	t.Run("an id whose create never came is no task", func(t *testing.T) {
		l.Apply(update("u2", "5", tally.StatusCompleted))
		if l.Len() != 1 || l.Orphans != 1 {
			t.Errorf("%d items, %d orphans: an update for a task never created must be counted, not shown", l.Len(), l.Orphans)
		}
	})
	t.Run("a state saved with every id is read, its ids dropped", func(t *testing.T) {
		var old tally.List
		if err := json.Unmarshal([]byte(`{"earlyIds":{"c1":"1"},"updatedAt":"2026-11-22T10:00:00Z"}`), &old); err != nil {
			t.Fatal(err)
		}
		if old.Apply(create("c1", "a")); old.Len() != 1 {
			t.Errorf("%d items", old.Len())
		}
	})
}

func TestFileState_Reset_KeepsNameAndCountsTheReset(t *testing.T) {
	// A replaced file's items are cleared when its offset rolls back, and
	// it is folded again from offset 0.
	f := &tally.FileState{Path: "p", Session: "s", Agent: claude.Agent, Offset: 99}
	f.Apply(create("c1", "a"))
	f.Reset()
	if f.Offset != 0 || len(f.Lists) != 0 || f.Path != "p" || f.Session != "s" || f.Stats.Resets != 1 {
		t.Fatalf("after Reset: %+v", f)
	}
}

// An item without text is no step of a list: wherever items enter a list
// it is skipped, and counted so that it is not invisible either. A blank
// row would be shown and counted in progress.total by one surface and
// hidden by another.
func TestList_Apply_ItemWithoutTextIsSkippedAndCounted(t *testing.T) {
	blank := func(tuid string) tally.Event { return snapshot(tuid, "Write tests", "", "  \t", "Ship") }
	t.Run("snapshot", func(t *testing.T) {
		l := fold(blank("t1"))
		if got := titles(l); !reflect.DeepEqual(got, []string{"Write tests=pending", "Ship=pending"}) {
			t.Errorf("items = %v", got)
		}
		if l.Blank != 2 {
			t.Errorf("blank = %d, want 2", l.Blank)
		}
		if l.Apply(blank("t1")); l.Blank != 2 {
			t.Errorf("a snapshot read twice counted its blank items twice: %d", l.Blank)
		}
	})
	t.Run("resync", func(t *testing.T) {
		l := fold(tally.Event{Kind: tally.EventTaskResync, ToolUseID: "r", Items: []tally.Item{{ID: "1", Title: "a", Status: tally.StatusPending}, {ID: "2"}}})
		if got := titles(l); !reflect.DeepEqual(got, []string{"a=pending"}) || l.Blank != 1 {
			t.Errorf("items = %v, blank %d", got, l.Blank)
		}
	})
	t.Run("merge adds no blank item but still updates one by id", func(t *testing.T) {
		l := fold(tally.Event{Kind: tally.EventMerge, Items: []tally.Item{{ID: "1", Title: "a", Status: tally.StatusPending}, {ID: "2", Title: " "}}},
			tally.Event{Kind: tally.EventMerge, Items: []tally.Item{{ID: "1", Status: tally.StatusCompleted}}})
		if got := titles(l); !reflect.DeepEqual(got, []string{"a=completed"}) || l.Blank != 1 {
			t.Errorf("items = %v, blank %d", got, l.Blank)
		}
	})
	t.Run("a task without a subject is not shown until it gets one", func(t *testing.T) {
		l := fold(create("c1", ""), assign("c1", "1"))
		if got := titles(l); len(got) != 0 || l.Blank != 1 {
			t.Errorf("items = %v, blank %d", got, l.Blank)
		}
		l.Apply(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: "u", Patch: tally.TaskPatch{ID: "1", Subject: ptr("Named later")}})
		if got := titles(l); !reflect.DeepEqual(got, []string{"Named later=pending"}) {
			t.Errorf("items = %v", got)
		}
	})
	t.Run("the file's stats count them", func(t *testing.T) {
		var f tally.FileState
		f.Apply(blank("t1"))
		if f.Stats.Blank != 2 {
			t.Errorf("stats.blank = %d, want 2", f.Stats.Blank)
		}
	})
}
