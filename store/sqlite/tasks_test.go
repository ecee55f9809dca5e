package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

var taskNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func createTask(l *tasks.List, subject string) error {
	_, err := l.Create(tasks.CreateArgs{Subject: subject}, taskNow)
	return err
}

func TestStore_UpdateTaskList(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "tally.db"))
	defer s.Close()
	_, mark, err := s.Changed(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("commits the list and its session", func(t *testing.T) {
		if _, err := s.UpdateTaskList(ctx, "w", func(l *tasks.List) error { return createTask(l, "build") }); err != nil {
			t.Fatal(err)
		}
		recs, _, err := s.Changed(ctx, mark)
		if err != nil || len(recs) != 1 || recs[0].ID != "tally:w" || recs[0].Agent != tally.AgentTally || recs[0].Lists[""][0].Title != "build" {
			t.Fatalf("Changed after a tool call: %+v, %v (a running watch must see the list)", recs, err)
		}
	})
	t.Run("a refused call writes nothing", func(t *testing.T) {
		boom := errors.New("refused")
		_, err := s.UpdateTaskList(ctx, "w", func(l *tasks.List) error {
			createTask(l, "half done")
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
		if l, _ := s.TaskList(ctx, "w"); len(l.Tasks) != 1 {
			t.Fatalf("list after a refused call: %+v", l.Tasks)
		}
	})
	t.Run("a fresh start archives the finished round", func(t *testing.T) {
		_, err := s.UpdateTaskList(ctx, "w", func(l *tasks.List) error {
			done := tally.StatusCompleted
			if _, err := l.Update(tasks.UpdateArgs{ID: "1", Status: &done}, taskNow); err != nil {
				return err
			}
			return createTask(l, "next round")
		})
		if err != nil {
			t.Fatal(err)
		}
		arch, err := s.ArchivedTaskLists(ctx, "w")
		if err != nil || len(arch) != 1 || arch[0].Tasks[0].Title != "build" {
			t.Fatalf("archive = %+v, %v", arch, err)
		}
		if l, _ := s.TaskList(ctx, "w"); l.Generation != 1 || l.Tasks[0].ID != "1" || l.Tasks[0].Title != "next round" {
			t.Fatalf("fresh list: %+v", l)
		}
	})
	t.Run("names are checked", func(t *testing.T) {
		if _, err := s.UpdateTaskList(ctx, "a b", func(*tasks.List) error { return nil }); tally.ErrorCode(err) != tally.CodeInvalid {
			t.Fatalf("err = %v", err)
		}
		if _, err := s.TaskList(ctx, "nope"); tally.ErrorCode(err) != tally.CodeNotFound {
			t.Fatalf("missing list: %v", err)
		}
	})
}

func TestStore_UpdateTaskList_DamagedRowRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tally.db")
	s := openTemp(t, path)
	defer s.Close()
	if _, err := s.UpdateTaskList(ctx, "d", func(l *tasks.List) error { return createTask(l, "x") }); err != nil {
		t.Fatal(err)
	}
	if _, err := rawDB(t, path).Exec(`UPDATE task_lists SET list = '{broken' WHERE name = 'd'`); err != nil {
		t.Fatal(err)
	}
	_, err := s.UpdateTaskList(ctx, "d", func(l *tasks.List) error { return createTask(l, "y") })
	if tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Fatalf("a damaged list must not be overwritten: %v", err)
	}
	if n, _ := s.Skipped(); n == 0 {
		t.Error("damaged row not counted")
	}
}
