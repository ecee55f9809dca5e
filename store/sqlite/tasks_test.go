package sqlite

import (
	"context"
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
