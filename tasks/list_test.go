package tasks_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func mustCreate(t *testing.T, l *tasks.List, subject string) string {
	t.Helper()
	res, err := l.Create(tasks.CreateArgs{Subject: subject, Description: subject}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return res.Task.ID
}

func TestList_Update_Rules(t *testing.T) {
	l := tasks.List{Name: "w"}
	for _, s := range []string{"Set up database", "Create API", "Add auth", "Integration tests"} {
		mustCreate(t, &l, s)
	}
	// #2 and #3 wait on #1, #4 on #2 and #3.
	for _, u := range []tasks.UpdateArgs{{ID: "2", AddBlockedBy: []string{"1"}}, {ID: "3", AddBlockedBy: []string{"1"}}, {ID: "4", AddBlockedBy: []string{"2", "3"}}} {
		if _, err := l.Update(u, t0); err != nil {
			t.Fatal(err)
		}
	}
	blocked := func() string {
		var b []string
		for _, v := range l.Items() {
			if v.Blocked {
				b = append(b, v.ID)
			}
		}
		return strings.Join(b, ",")
	}
	if got := blocked(); got != "2,3,4" {
		t.Fatalf("blocked = %s, want 2,3,4", got)
	}
	if tk, _ := l.Task("1"); !reflect.DeepEqual(tk.Blocks, []string{"2", "3"}) {
		t.Errorf("#1 blocks %v: links are kept both ways", tk.Blocks)
	}
	_, err := l.Update(tasks.UpdateArgs{ID: "4", Status: ptr(tally.StatusInProgress)}, t0)
	var be *tasks.BlockedError
	if tally.ErrorCode(err) != tally.CodeConflict || !errors.As(err, &be) || be.Task != "4" || len(be.Blockers) != 2 {
		t.Errorf("starting a blocked task: %v, want a BlockedError naming #2 and #3", err)
	}
	for _, id := range []string{"1"} {
		l.Update(tasks.UpdateArgs{ID: id, Status: ptr(tally.StatusInProgress)}, t0)
		l.Update(tasks.UpdateArgs{ID: id, Status: ptr(tally.StatusCompleted)}, t0)
	}
	// Completing #1 unblocks #2 and #3 with no further call; #4 still
	// waits on both.
	if got := blocked(); got != "4" {
		t.Errorf("after #1 completes, blocked = %s, want 4", got)
	}
}

func TestList_VerificationDue(t *testing.T) {
	for _, tt := range []struct {
		name     string
		subjects []string
		want     []bool
	}{
		{"third completion without a check", []string{"a", "b", "c"}, []bool{false, false, true}},
		{"a task runs the tests", []string{"a", "b", "Run the tests"}, []bool{false, false, false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := tasks.List{Name: "n"}
			for _, s := range tt.subjects {
				mustCreate(t, &l, s)
			}
			for i := range tt.subjects {
				id := strconv.Itoa(i + 1)
				if _, err := l.Update(tasks.UpdateArgs{ID: id, Status: ptr(tally.StatusInProgress)}, t0); err != nil {
					t.Fatal(err)
				}
				res, err := l.Update(tasks.UpdateArgs{ID: id, Status: ptr(tally.StatusCompleted)}, t0)
				if err != nil || res.VerificationDue != tt.want[i] {
					t.Errorf("completion %d: nudge %v, %v; want %v", i+1, res.VerificationDue, err, tt.want[i])
				}
			}
		})
	}
}

func TestList_Create_FreshAfterAllDone(t *testing.T) {
	l := tasks.List{Name: "f"}
	mustCreate(t, &l, "a")
	l.Update(tasks.UpdateArgs{ID: "1", Status: ptr(tally.StatusCompleted)}, t0)
	res, err := l.Create(tasks.CreateArgs{Subject: "b"}, t0)
	if err != nil || !res.Fresh || res.Task.ID != "1" || l.Generation != 1 || len(l.Tasks) != 1 {
		t.Fatalf("create on an all-done list: %+v %v (generation %d, %d tasks)", res, err, l.Generation, len(l.Tasks))
	}
}

func TestList_WriteTodos_KeepsTaskFields(t *testing.T) {
	l := tasks.List{Name: "h"}
	mustCreate(t, &l, "Write the parser")
	l.Update(tasks.UpdateArgs{ID: "1", Owner: ptr("ann")}, t0)
	if _, err := l.WriteTodos([]tasks.Todo{{Content: "Write the parser", Status: tally.StatusInProgress}, {Content: "Ship", Status: tally.StatusPending}}, false, t0); err != nil {
		t.Fatal(err)
	}
	if tk, _ := l.Task("1"); tk.Owner != "ann" || tk.Status != tally.StatusInProgress {
		t.Errorf("the todo of the same text lost its task's owner: %+v", tk)
	}
	if tk, _ := l.Task("2"); tk.Title != "Ship" {
		t.Errorf("new todo: %+v", tk)
	}
}

func TestList_Update_RefusesWhatAListDoesNotHold(t *testing.T) {
	l := tasks.List{Name: "e"}
	mustCreate(t, &l, "a")
	_, err := l.Update(tasks.UpdateArgs{ID: "1", Status: ptr(tally.StatusFailed)}, t0)
	if tally.ErrorCode(err) != tally.CodeInvalid || !strings.Contains(err.Error(), "pending, in_progress, completed, cancelled") {
		t.Errorf("status failed: %v", err)
	}
	_, err = l.Update(tasks.UpdateArgs{ID: "7"}, t0)
	var nf *tasks.NotFoundError
	if tally.ErrorCode(err) != tally.CodeNotFound || !errors.As(err, &nf) || nf.Deleted || !reflect.DeepEqual(nf.Live, []string{"1"}) {
		t.Errorf("missing task: %v, want a NotFoundError naming live task 1", err)
	}
	if _, err := l.Delete("1", t0); err != nil {
		t.Fatal(err)
	}
	_, err = l.Update(tasks.UpdateArgs{ID: "1"}, t0)
	if !errors.As(err, &nf) || !nf.Deleted {
		t.Errorf("deleted task: %v, want a NotFoundError saying it was deleted", err)
	}
}

func TestList_Delete_AnswersTheStatusTheTaskHad(t *testing.T) {
	l := tasks.List{Name: "d"}
	for _, s := range []string{"a", "b", "c"} {
		mustCreate(t, &l, s)
	}
	l.Update(tasks.UpdateArgs{ID: "1", Status: ptr(tally.StatusCompleted)}, t0)
	l.Update(tasks.UpdateArgs{ID: "3", AddBlockedBy: []string{"1"}}, t0)
	was, err := l.Delete("1", t0)
	if err != nil || was != tally.StatusCompleted {
		t.Fatalf("deleting completed #1 answered %v, %v", was, err)
	}
	if _, err := l.Task("1"); tally.ErrorCode(err) != tally.CodeNotFound || len(l.Deleted) != 1 {
		t.Errorf("#1 is still live, or not kept in Deleted: %v %+v", err, l.Deleted)
	}
	if tk, _ := l.Task("3"); len(tk.BlockedBy) != 0 {
		t.Errorf("#3 still waits on deleted #1: %v", tk.BlockedBy)
	}
}

// TestList_Rules_Property drives a list with random tool calls and
// checks the rules after every one.
func TestList_Rules_Property(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := tasks.List{Name: "p"}
		id := rapid.SampledFrom([]string{"1", "2", "3", "4", "5", "6", "9"})
		// Failed is no status of a task list: it must be refused.
		status := rapid.SampledFrom([]tally.Status{tally.StatusPending, tally.StatusInProgress, tally.StatusCompleted, tally.StatusCancelled, tally.StatusFailed})
		todoStatus := rapid.SampledFrom([]tally.Status{tally.StatusUnknown, tally.StatusPending, tally.StatusInProgress, tally.StatusCompleted, tally.StatusCancelled, tally.StatusFailed})
		owner := rapid.SampledFrom([]string{"", "ann", "bob"})
		for step := range rapid.IntRange(1, 60).Draw(rt, "steps") {
			before := l.Clone()
			beforeJSON, _ := json.Marshal(before)
			var err error
			action := rapid.IntRange(0, 6).Draw(rt, "action")
			var started string
			switch action {
			case 0, 1:
				_, err = l.Create(tasks.CreateArgs{Subject: rapid.SampledFrom([]string{"build", "ship", "run checks"}).Draw(rt, "subject")}, t0)
			case 2, 3:
				u := tasks.UpdateArgs{ID: id.Draw(rt, "id")}
				if rapid.Bool().Draw(rt, "hasStatus") {
					u.Status = ptr(status.Draw(rt, "status"))
					if *u.Status == tally.StatusInProgress {
						started = u.ID
					}
				}
				if o := owner.Draw(rt, "owner"); o != "" {
					u.Owner = &o
				}
				if rapid.Bool().Draw(rt, "link") {
					u.AddBlockedBy = []string{id.Draw(rt, "blocker")}
				}
				_, err = l.Update(u, t0)
			case 4:
				n := rapid.IntRange(0, 3).Draw(rt, "todos")
				todos := make([]tasks.Todo, n)
				for i := range todos {
					todos[i] = tasks.Todo{ID: id.Draw(rt, "todoID"), Content: "t" + strconv.Itoa(i), Status: todoStatus.Draw(rt, "todoStatus")}
				}
				_, err = l.WriteTodos(todos, rapid.Bool().Draw(rt, "merge"), t0)
			case 5:
				l.SetMode(tasks.Mode(rapid.IntRange(0, 1).Draw(rt, "mode")), t0)
			case 6:
				d := id.Draw(rt, "delete")
				var was tally.Status
				was, err = l.Delete(d, t0)
				if old, _ := before.Task(d); err == nil && was != old.Status {
					rt.Fatalf("step %d: deleting #%s answered %s, it was %s", step, d, was, old.Status)
				}
				if _, gone := l.Task(d); err == nil && gone == nil {
					rt.Fatalf("step %d: deleted #%s is still live", step, d)
				}
			}
			where := fmt.Sprintf("step %d action %d", step, action)
			if err != nil {
				if got, _ := json.Marshal(l); string(got) != string(beforeJSON) {
					rt.Fatalf("%s: refused call (%v) changed the list", where, err)
				}
				continue
			}
			checkInvariants(rt, where, &before, &l, started)
		}
	})
}

func checkInvariants(rt *rapid.T, where string, before, l *tasks.List, started string) {
	live := map[string]*tasks.Task{}
	inProgress := 0
	for i := range l.Tasks {
		tk := &l.Tasks[i]
		if live[tk.ID] != nil {
			rt.Fatalf("%s: id %s twice", where, tk.ID)
		}
		live[tk.ID] = tk
		if tk.Status == tally.StatusInProgress {
			inProgress++
		}
	}
	if inProgress > 1 {
		rt.Fatalf("%s: %d tasks in progress", where, inProgress)
	}
	for _, tk := range l.Tasks {
		for _, b := range tk.BlockedBy {
			if o := live[b]; o == nil || !contains(o.Blocks, tk.ID) {
				rt.Fatalf("%s: #%s blockedBy #%s not mirrored", where, tk.ID, b)
			}
		}
		for _, b := range tk.Blocks {
			if o := live[b]; o == nil || !contains(o.BlockedBy, tk.ID) {
				rt.Fatalf("%s: #%s blocks #%s not mirrored", where, tk.ID, b)
			}
		}
		old, _ := before.Task(tk.ID)
		wasLive := old.ID != ""
		if tk.Status == tally.StatusInProgress && (!wasLive || old.Status != tally.StatusInProgress) {
			if before.Mode == tasks.ModePlan && wasLive {
				rt.Fatalf("%s: #%s started in plan mode", where, tk.ID)
			}
			for _, b := range tk.BlockedBy {
				if live[b].Status.Open() {
					rt.Fatalf("%s: #%s started with open blocker #%s", where, tk.ID, b)
				}
			}
		}
		if wasLive && old.Status == tally.StatusInProgress && old.Owner != "" && tk.Owner != old.Owner {
			rt.Fatalf("%s: #%s in progress by %s was claimed by %q", where, tk.ID, old.Owner, tk.Owner)
		}
		if before.Mode == tasks.ModePlan && tk.Status == tally.StatusCompleted && wasLive && old.Status != tally.StatusCompleted {
			rt.Fatalf("%s: #%s completed in plan mode", where, tk.ID)
		}
	}
	if started != "" && live[started] != nil && live[started].Status != tally.StatusInProgress {
		rt.Fatalf("%s: start of #%s accepted but it is %s", where, started, live[started].Status)
	}
	if rec := l.Record(); len(rec.Lists[""]) != len(l.Tasks) || rec.Agent != tally.AgentTally {
		rt.Fatalf("%s: record %+v", where, rec)
	}
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

func TestList_WriteTodos_ExplicitIdsNeverCollide(t *testing.T) {
	// A todo without an id must not get, or take by its text, an id a
	// later todo of the same call names.
	var l tasks.List
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	if _, err := l.WriteTodos([]tasks.Todo{{Content: "B", Status: tally.StatusPending}}, false, now); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteTodos([]tasks.Todo{{Content: "B", Status: tally.StatusPending}, {ID: "1", Content: "A", Status: tally.StatusPending}, {ID: "x", Content: "C2", Status: tally.StatusCompleted}}, false, now); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range l.Items() {
		if seen[it.ID] {
			t.Fatalf("id %s twice: %+v", it.ID, l.Items())
		}
		seen[it.ID] = true
		if it.ID == "x" && it.Title != "C2" {
			t.Errorf("duplicate id x kept %q, want the last occurrence", it.Title)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("tasks %+v, want B, A and C2", l.Items())
	}
}

func ptr[T any](v T) *T { return &v }
