package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/tasks"
)

func createTask(l *tasks.List, subject string) error {
	_, err := l.Create(tasks.CreateArgs{Subject: subject}, time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	return err
}

// TestUpdateTaskList_DamagedRowRefused: a list someone broke by hand is
// not overwritten (its tasks would be lost for good); the call says what
// to repair.
func TestUpdateTaskList_DamagedRowRefused(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	s := openTemp(t, url)
	defer s.Close()
	if _, err := s.UpdateTaskList(ctx, "d", func(l *tasks.List) error { return createTask(l, "x") }); err != nil {
		t.Fatal(err)
	}
	exec(t, url, `UPDATE task_lists SET list = '{"tasks": "not a list"}' WHERE name = 'd'`)
	_, err := s.UpdateTaskList(ctx, "d", func(l *tasks.List) error { return createTask(l, "y") })
	if tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Fatalf("a damaged list must not be overwritten: %v", err)
	}
	var raw string
	if err := rawDB(t, url).QueryRow(ctx, "SELECT list::text FROM task_lists WHERE name = 'd'").Scan(&raw); err != nil || raw != `{"tasks": "not a list"}` {
		t.Errorf("the damaged row is now %s (%v)", raw, err)
	}
	if n, _ := s.Skipped(); n == 0 {
		t.Error("damaged row not counted")
	}
}

// TestUpdateTaskList_WaitsForTheListLock: while another session holds the
// list's row lock (another replica in the middle of a call), a call on the
// same list waits and then works on what that one committed; a call on
// another list does not wait.
func TestUpdateTaskList_WaitsForTheListLock(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	s := openTemp(t, url)
	defer s.Close()
	for _, name := range []string{"held", "free"} {
		if _, err := s.UpdateTaskList(ctx, name, func(l *tasks.List) error { return createTask(l, "first") }); err != nil {
			t.Fatal(err)
		}
	}
	other := rawDB(t, url)
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT list FROM task_lists WHERE name = 'held' FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateTaskList(ctx, "free", func(l *tasks.List) error { return createTask(l, "second") }); err != nil {
		t.Fatalf("a call on another list: %v", err)
	}
	got := make(chan error, 1)
	go func() {
		_, err := s.UpdateTaskList(ctx, "held", func(l *tasks.List) error { return createTask(l, "after the lock") })
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a call on a locked list returned (%v) while the lock was held", err)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := tx.Exec(ctx, `UPDATE task_lists SET list = jsonb_set(list::jsonb, '{tasks,0,title}', '"renamed by the other replica"')::json WHERE name = 'held'`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	l, err := s.TaskList(ctx, "held")
	if err != nil || len(l.Tasks) != 2 || l.Tasks[0].Title != "renamed by the other replica" {
		t.Fatalf("after the wait the list is %+v, %v: the call must build on what the other committed", l.Tasks, err)
	}
}
