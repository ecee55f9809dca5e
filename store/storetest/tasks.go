package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/tasks"
)

// RunTasks checks the task-list part of a store (tasks.Store).
func RunTasks(t *testing.T, open Opener) {
	t.Run("a tool call commits the list and its session", func(t *testing.T) { testTaskCommit(t, open) })
	t.Run("a refused call writes nothing", func(t *testing.T) { testTaskRefused(t, open) })
	t.Run("a fresh start archives the finished round", func(t *testing.T) { testTaskArchive(t, open) })
	t.Run("names are checked, a missing list is not found", func(t *testing.T) { testTaskNames(t, open) })
	t.Run("TaskLists: the most recently changed first", func(t *testing.T) { testTaskLists(t, open) })
}

var taskNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func openTasks(t *testing.T, open Opener) store.Store {
	t.Helper()
	return openFull(t, open)
}

func createTask(l *tasks.List, subject string) error {
	_, err := l.Create(tasks.CreateArgs{Subject: subject}, taskNow)
	return err
}

func update(t *testing.T, s tasks.Store, name string, fn func(*tasks.List) error) tasks.List {
	t.Helper()
	l, err := s.UpdateTaskList(context.Background(), name, fn)
	if err != nil {
		t.Fatalf("UpdateTaskList(%s): %v", name, err)
	}
	return l
}

func testTaskCommit(t *testing.T, open Opener) {
	s := openTasks(t, open)
	ctx := context.Background()
	_, mark, err := s.Changed(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := update(t, s, "w", func(l *tasks.List) error { return createTask(l, "build") })
	if got.Name != "w" || len(got.Tasks) != 1 || got.Tasks[0].ID != "1" {
		t.Fatalf("UpdateTaskList returned %+v, want the committed list", got)
	}
	recs, _, err := s.Changed(ctx, mark)
	if err != nil || len(recs) != 1 || recs[0].ID != "tally:w" || recs[0].Agent != tally.AgentTally || recs[0].Lists[""][0].Title != "build" {
		t.Fatalf("Changed after a tool call: %+v, %v (a running watch must see the list)", recs, err)
	}
	if rec, err := s.Record(ctx, "tally:w"); err != nil || rec.Title == "" {
		t.Fatalf("the list's session: %+v, %v", rec, err)
	}
	l, err := s.TaskList(ctx, "w")
	if err != nil || len(l.Tasks) != 1 || l.Tasks[0].Title != "build" || l.Name != "w" {
		t.Fatalf("TaskList after the call: %+v, %v", l, err)
	}
}

func testTaskRefused(t *testing.T, open Opener) {
	s := openTasks(t, open)
	ctx := context.Background()
	update(t, s, "w", func(l *tasks.List) error { return createTask(l, "build") })
	mark, err := s.ChangeMark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("refused")
	for _, name := range []string{"w", "never-made"} {
		_, err := s.UpdateTaskList(ctx, name, func(l *tasks.List) error {
			if err := createTask(l, "half done"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("UpdateTaskList(%s) whose call refused: %v, want the call's own error", name, err)
		}
	}
	if l, _ := s.TaskList(ctx, "w"); len(l.Tasks) != 1 {
		t.Errorf("list after a refused call: %+v", l.Tasks)
	}
	if _, err := s.TaskList(ctx, "never-made"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("a refused first call made the list: %v", err)
	}
	if recs, _, _ := s.Changed(ctx, mark); len(recs) != 0 {
		t.Errorf("refused calls changed %d sessions", len(recs))
	}
}

func testTaskArchive(t *testing.T, open Opener) {
	s := openTasks(t, open)
	ctx := context.Background()
	update(t, s, "w", func(l *tasks.List) error { return createTask(l, "build") })
	update(t, s, "w", func(l *tasks.List) error {
		done := tally.StatusCompleted
		if _, err := l.Update(tasks.UpdateArgs{ID: "1", Status: &done}, taskNow); err != nil {
			return err
		}
		return createTask(l, "next round")
	})
	arch, err := s.ArchivedTaskLists(ctx, "w")
	if err != nil || len(arch) != 1 || arch[0].Tasks[0].Title != "build" || arch[0].Name != "w" {
		t.Fatalf("archive = %+v, %v", arch, err)
	}
	if l, _ := s.TaskList(ctx, "w"); l.Generation != 1 || l.Tasks[0].ID != "1" || l.Tasks[0].Title != "next round" {
		t.Fatalf("fresh list: %+v", l)
	}
}

func testTaskNames(t *testing.T, open Opener) {
	s := openTasks(t, open)
	ctx := context.Background()
	if _, err := s.UpdateTaskList(ctx, "a b", func(*tasks.List) error { return nil }); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("UpdateTaskList(a b): %v, want invalid", err)
	}
	if _, err := s.TaskList(ctx, "a b"); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("TaskList(a b): %v, want invalid", err)
	}
	if _, err := s.TaskList(ctx, "nope"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("missing list: %v, want not found", err)
	}
	if arch, err := s.ArchivedTaskLists(ctx, "nope"); err != nil || len(arch) != 0 {
		t.Errorf("archive of a missing list: %v, %v", arch, err)
	}
}

func testTaskLists(t *testing.T, open Opener) {
	s := openTasks(t, open)
	for _, name := range []string{"b", "a", "c", "b"} {
		update(t, s, name, func(l *tasks.List) error { return createTask(l, "in "+name) })
	}
	ls, err := s.TaskLists(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	equal(t, "TaskLists", names, []string{"b", "c", "a"})
	if len(ls) == 3 && len(ls[0].Tasks) != 2 {
		t.Errorf("list b holds %d tasks, want 2", len(ls[0].Tasks))
	}
}
