package storetest

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/tasks"
)

// Database makes a new, empty database for one subtest and returns how to
// open a handle on it: several handles on one database stand for several
// processes (tally serve replicas, tally mcp) sharing it. RunShared
// closes every handle.
type Database func(t *testing.T) Opener

// RunShared checks what processes sharing one database rely on: each
// sees the others' commits, a reader following Changed misses none of
// them however they interleave, and task-list calls through different
// handles never lose an update.
func RunShared(t *testing.T, db Database) {
	t.Run("another process's commits show in Changed", func(t *testing.T) { testSharedChanged(t, db) })
	t.Run("a reader following Changed misses no concurrent commit", func(t *testing.T) { testNoMissedCommit(t, db) })
	t.Run("task calls through several processes lose no update", func(t *testing.T) { testSharedTasks(t, db) })
}

func testSharedChanged(t *testing.T, db Database) {
	open := db(t)
	a, b := openFull(t, open), openFull(t, open)
	ctx := context.Background()
	mark, err := b.ChangeMark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, a, tally.Batch{Sessions: []tally.Record{fullRecord("from-a", claude.Agent, "/p", at(1))}})
	recs, next, err := b.Changed(ctx, mark)
	if err != nil || len(recs) != 1 || recs[0].ID != "from-a" {
		t.Fatalf("b.Changed after a's commit: %v, %v", ids(recs), err)
	}
	if now, _ := a.ChangeMark(ctx); now != next {
		t.Errorf("a's ChangeMark %d, b's Changed said %d: one database, one mark", now, next)
	}
}

// testNoMissedCommit: writers on their own handles commit sessions no one
// writes again while a reader follows Changed. A store whose marks could
// commit out of order (a mark taken, another process's higher mark
// committed and read, then the lower one committed) loses sessions here.
func testNoMissedCommit(t *testing.T, db Database) {
	const writers, commits = 3, 40
	open := db(t)
	reader := openFull(t, open)
	ws := make([]tally.Store, writers)
	for i := range ws {
		ws[i] = openFull(t, open)
	}
	ctx := context.Background()
	mark, err := reader.ChangeMark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	read := func() {
		recs, next, err := reader.Changed(ctx, mark)
		if err != nil {
			t.Errorf("Changed: %v", err)
			return
		}
		if next < mark {
			t.Errorf("Changed moved the mark back from %d to %d", mark, next)
		}
		mark = next
		for _, r := range recs {
			seen[r.ID]++
		}
	}
	var wg sync.WaitGroup
	for w, s := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range commits {
				id := fmt.Sprintf("w%d-%03d", w, i)
				b := tally.Batch{Sessions: []tally.Record{fullRecord(id, codex.Agent, "/p", at(i))}}
				if err := s.Commit(ctx, b); err != nil {
					t.Errorf("Commit %s: %v", id, err)
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		read()
	}
	read()
	for w := range writers {
		for i := range commits {
			id := fmt.Sprintf("w%d-%03d", w, i)
			if seen[id] != 1 {
				t.Errorf("session %s was read %d times following Changed, want once", id, seen[id])
			}
		}
	}
}

// testSharedTasks: clients on several handles add tasks to one list that
// none of them has made yet, and set a counter of their own: every task
// and every count arrives, ids are unique.
func testSharedTasks(t *testing.T, db Database) {
	const handles, clients, calls = 2, 3, 15
	open := db(t)
	stores := make([]store.Store, handles)
	for i := range stores {
		stores[i] = openTasks(t, open)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for c := range handles * clients {
		s := stores[c%handles]
		wg.Add(1)
		go func() {
			defer wg.Done()
			me := "c" + strconv.Itoa(c)
			for i := range calls {
				_, err := s.UpdateTaskList(ctx, "shared", func(l *tasks.List) error {
					return createTask(l, fmt.Sprintf("%s-%d", me, i))
				})
				if err != nil {
					t.Errorf("%s call %d: %v", me, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	l, err := stores[0].TaskList(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tasks) != handles*clients*calls {
		t.Errorf("the list holds %d tasks; %d were created: updates were lost", len(l.Tasks), handles*clients*calls)
	}
	seen := map[string]bool{}
	for _, tk := range l.Tasks {
		if seen[tk.ID] {
			t.Errorf("id %s given twice", tk.ID)
		}
		seen[tk.ID] = true
	}
}
