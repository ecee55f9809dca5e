package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// listOp is one call a tool or a command makes on a list.
type listOp struct {
	name string
	fn   func(l *tasks.List, now time.Time) error
}

// randomOp draws a call: creates, status changes, edits, links, deletes,
// whole checklists that reorder and drop tasks, merges, plans, mode
// switches; finished rounds start again.
func randomOp(r *rand.Rand) listOp {
	id := func(l *tasks.List) string {
		if len(l.Tasks) == 0 || r.IntN(8) == 0 {
			return strconv.Itoa(1 + r.IntN(9))
		}
		return l.Tasks[r.IntN(len(l.Tasks))].ID
	}
	status := []tally.Status{tally.StatusPending, tally.StatusInProgress, tally.StatusCompleted, tally.StatusCancelled}[r.IntN(4)]
	switch r.IntN(9) {
	case 0, 1:
		return listOp{"create", func(l *tasks.List, now time.Time) error {
			_, err := l.Create(tasks.CreateArgs{Subject: fmt.Sprintf("task %d", r.IntN(100)), Description: "d"}, now)
			return err
		}}
	case 2:
		return listOp{"status", func(l *tasks.List, now time.Time) error {
			_, err := l.Update(tasks.UpdateArgs{ID: id(l), Status: &status}, now)
			return err
		}}
	case 3:
		return listOp{"edit", func(l *tasks.List, now time.Time) error {
			s := fmt.Sprintf("edited %d", r.IntN(100))
			_, err := l.Update(tasks.UpdateArgs{ID: id(l), Description: &s, Metadata: map[string]json.RawMessage{"k": json.RawMessage(`[1]`)}}, now)
			return err
		}}
	case 4:
		return listOp{"link", func(l *tasks.List, now time.Time) error {
			_, err := l.Update(tasks.UpdateArgs{ID: id(l), AddBlockedBy: []string{id(l)}}, now)
			return err
		}}
	case 5:
		return listOp{"delete", func(l *tasks.List, now time.Time) error {
			_, err := l.Delete(id(l), now)
			return err
		}}
	case 6:
		return listOp{"checklist", func(l *tasks.List, now time.Time) error {
			var todos []tasks.Todo
			for i := len(l.Tasks) - 1; i >= 0; i-- { // reversed, some dropped
				if r.IntN(4) > 0 {
					todos = append(todos, tasks.Todo{ID: l.Tasks[i].ID, Content: l.Tasks[i].Title, Status: tally.StatusPending})
				}
			}
			todos = append(todos, tasks.Todo{Content: "new", Status: tally.StatusPending})
			_, err := l.WriteTodos(todos, r.IntN(2) == 0, now)
			return err
		}}
	case 7:
		return listOp{"plan", func(l *tasks.List, now time.Time) error {
			_, err := l.UpdatePlan("why", []tasks.PlanStep{{Step: "one", Status: status}, {Step: "two", Status: tally.StatusPending}}, now)
			return err
		}}
	}
	return listOp{"mode", func(l *tasks.List, now time.Time) error {
		l.SetMode(tasks.Mode(r.IntN(2)), now)
		return nil
	}}
}

func listJSON(t *testing.T, l tasks.List) string {
	t.Helper()
	l.Name = "" // some paths leave it to the caller
	if len(l.Tasks) == 0 {
		l.Tasks = nil // no tasks is no tasks, however it was built
	}
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// Two processes (two Stores, each with its own memory of the lists) take
// turns calling on one list: each reads exactly what the other wrote, and
// the list's session shows its tasks in order, whatever the calls did.
func TestStore_taskRowsReadBackWhatWasWritten(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tally.db")
			a, b := openTemp(t, path), openTemp(t, path)
			defer a.Close()
			defer b.Close()
			r := rand.New(rand.NewPCG(seed, 9))
			want := tasks.List{Name: "w"}
			now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
			for step := range 120 {
				op := randomOp(r)
				now = now.Add(time.Second)
				st := []*Store{a, b}[r.IntN(2)]
				// The call runs once on the reference; the store is given
				// its outcome to write over what it holds.
				ref := want.Clone()
				refErr := op.fn(&ref, now)
				got, err := st.UpdateTaskList(ctx, "w", func(l *tasks.List) error {
					*l = ref.Clone()
					l.Name = "w"
					return refErr
				})
				if (err != nil) != (refErr != nil) {
					t.Fatalf("step %d %s: %v, want %v", step, op.name, err, refErr)
				}
				if err == nil {
					want = ref
				}
				if err == nil && listJSON(t, got) != listJSON(t, want) {
					t.Fatalf("step %d %s: committed\n%s\nwant\n%s", step, op.name, listJSON(t, got), listJSON(t, want))
				}
				for _, reader := range []*Store{a, b} {
					l, err := reader.TaskList(ctx, "w")
					if err != nil && tally.ErrorCode(err) != tally.CodeNotFound {
						t.Fatalf("step %d: %v", step, err)
					}
					if err == nil && listJSON(t, l) != listJSON(t, want) {
						t.Fatalf("step %d %s: read back\n%s\nwant\n%s", step, op.name, listJSON(t, l), listJSON(t, want))
					}
				}
				if want.CreatedAt.IsZero() {
					continue
				}
				rec, err := b.Record(ctx, "tally:w")
				if err != nil {
					t.Fatal(err)
				}
				wantRec := want.Record()
				gotItems, _ := json.Marshal(rec.Lists[""])
				wantItems, _ := json.Marshal(wantRec.Lists[""])
				if string(gotItems) != string(wantItems) || rec.Signal != wantRec.Signal || rec.Title != wantRec.Title {
					t.Fatalf("step %d %s: session items\n%s\nwant\n%s", step, op.name, gotItems, wantItems)
				}
			}
		})
	}
}

// A database whose lists were stored whole (schema 3) has them as rows
// after the upgrade, each exactly as it was; a damaged one stays damaged
// and refused, and does not stop the upgrade.
func TestStore_migrationMakesListsRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tally.db")
	db := rawDB(t, path)
	names, err := fs.Glob(migrationFS, "migrations/00[123]_*.sql")
	if err != nil || len(names) != 3 {
		t.Fatalf("migrations 1 to 3: %v %v", names, err)
	}
	for _, n := range names {
		text, _ := fs.ReadFile(migrationFS, n)
		if _, err := db.Exec(string(text)); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	l := tasks.List{Name: "old", Project: "/p"}
	for _, s := range []string{"one", "two", "three", "four"} {
		if _, err := l.Create(tasks.CreateArgs{Subject: s}, now); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Update(tasks.UpdateArgs{ID: "3", AddBlockedBy: []string{"1"}}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Delete("2", now); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(l)
	rec := l.Record()
	rjs, _ := json.Marshal(rec)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO task_lists (name, list, updated_at) VALUES ('old', ?, 1), ('bad', '{broken', 2)`, []any{string(js)}},
		{`INSERT INTO sessions (id, agent, project, title, started_at, last_activity, record, updated_at, seq) VALUES ('tally:old', 'tally', '/p', ?, 1, 1, ?, 1, 1)`, []any{rec.Title, string(rjs)}},
		{`PRAGMA user_version = 3`, nil},
	} {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	s := openTemp(t, path)
	defer s.Close()
	got, err := s.TaskList(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if listJSON(t, got) != listJSON(t, l) {
		t.Errorf("after the upgrade\n%s\nwant\n%s", listJSON(t, got), listJSON(t, l))
	}
	r, err := s.Record(ctx, "tally:old")
	if err != nil {
		t.Fatal(err)
	}
	gotItems, _ := json.Marshal(r.Lists[""])
	wantItems, _ := json.Marshal(rec.Lists[""])
	if string(gotItems) != string(wantItems) {
		t.Errorf("session items after the upgrade\n%s\nwant\n%s", gotItems, wantItems)
	}
	if _, err := s.TaskList(ctx, "bad"); tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Errorf("the damaged list: %v, want it refused as damaged", err)
	}
	// And the upgraded list takes calls.
	if _, err := s.UpdateTaskList(ctx, "old", func(l *tasks.List) error { return createTask(l, "five") }); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.TaskList(ctx, "old"); len(got.Tasks) != 4 || got.Tasks[3].ID != "5" {
		t.Errorf("after a call: %s", listJSON(t, got))
	}
}
