package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// watchedStore checks the list every committed transaction produced:
// the store serialises commits, so each committed state passes here once.
type watchedStore struct {
	Store
	mu         sync.Mutex
	commits    int
	violations []string
	started    int
}

func (w *watchedStore) UpdateTaskList(ctx context.Context, name string, fn func(*tasks.List) error) (tasks.List, error) {
	l, err := w.Store.UpdateTaskList(ctx, name, fn)
	if err != nil {
		return l, err
	}
	n := 0
	for _, t := range l.Tasks {
		if t.Status == tally.StatusInProgress {
			n++
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.commits++
	if n > 1 {
		w.violations = append(w.violations, fmt.Sprintf("commit %d: %d tasks in progress", w.commits, n))
	}
	if n == 1 {
		w.started++
	}
	return l, nil
}

// TestConcurrentClients: 8 clients × 500 calls on one list through one
// server process (tally serve with 8 sessions). No update is lost, ids are
// unique, and no committed state ever has two tasks in progress.
func TestConcurrentClients(t *testing.T) {
	runConcurrent(t, 8, 500, 1)
}

// TestConcurrentProcesses: the same with one store connection per client,
// as if each were its own tally mcp process, so commits are serialised by
// SQLite's lock rather than in Go. SQLite's busy handler polls, which makes
// this slow under contention: fewer calls.
func TestConcurrentProcesses(t *testing.T) {
	runConcurrent(t, 3, 80, 3)
}

func runConcurrent(t *testing.T, clients, ops, conns int) {
	db := filepath.Join(t.TempDir(), "tally.db")
	stores := make([]*watchedStore, conns)
	for k := range stores {
		stores[k] = &watchedStore{Store: openStore(t, db)}
	}
	anchor := connect(t, Options{Store: stores[0], List: "shared"})
	// Task #1 stays pending throughout, so the list is never all done and
	// never starts afresh under the clients.
	if a := call(t, anchor, "TaskCreate", map[string]any{"subject": "anchor", "description": "kept pending"}); a.IsError {
		t.Fatal(a.Text)
	}

	type tally_ struct {
		created []string
		meta    int
		done    []string
	}
	results := make([]tally_, clients)
	var wg sync.WaitGroup
	for k := range clients {
		cs := connect(t, Options{Store: stores[k%conns], List: "shared"})
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(k), 7))
			me := "c" + strconv.Itoa(k)
			mine := ""
			res := &results[k]
			for i := range ops {
				switch op := r.IntN(10); {
				case op == 0:
					a := call(t, cs, "TaskCreate", map[string]any{"subject": fmt.Sprintf("%s-%d", me, i), "description": "x"})
					if a.IsError {
						t.Errorf("%s create: %s", me, a.Text)
						return
					}
					res.created = append(res.created, a.Out["task"].(map[string]any)["id"].(string))
				case op <= 3 && mine == "":
					id := strconv.Itoa(2 + r.IntN(clients*ops/10))
					a := call(t, cs, "TaskUpdate", map[string]any{"taskId": id, "status": "in_progress", "owner": me})
					if !a.IsError {
						mine = id
					}
				case op <= 6 && mine != "":
					if a := call(t, cs, "TaskUpdate", map[string]any{"taskId": mine, "status": "completed"}); a.IsError {
						t.Errorf("%s completing its own #%s: %s", me, mine, a.Text)
						return
					}
					res.done = append(res.done, mine)
					mine = ""
				default:
					a := call(t, cs, "TaskUpdate", map[string]any{"taskId": "1", "metadata": map[string]any{me: res.meta + 1}})
					if a.IsError {
						t.Errorf("%s metadata: %s", me, a.Text)
						return
					}
					res.meta++
				}
			}
		}()
	}
	wg.Wait()

	l := liveTasks(t, stores[0], "shared")
	seen := map[string]string{}
	total := 0
	completedByClients := map[string]bool{}
	for k, res := range results {
		total += len(res.created)
		for _, id := range res.done {
			completedByClients[id] = true
		}
		for _, id := range res.created {
			if other, dup := seen[id]; dup {
				t.Errorf("id %s given to c%d and %s", id, k, other)
			}
			seen[id] = "c" + strconv.Itoa(k)
		}
		var got int
		if raw, ok := l.Tasks[0].Metadata["c"+strconv.Itoa(k)]; ok {
			_ = json.Unmarshal(raw, &got)
		}
		if got != res.meta {
			t.Errorf("c%d made %d metadata updates, the list holds %d: an update was lost", k, res.meta, got)
		}
	}
	if len(l.Tasks) != total+1 {
		t.Errorf("list holds %d tasks, clients created %d (+1 anchor)", len(l.Tasks), total)
	}
	// A completed task may be started again by another client; at the end
	// at most one such task is back in progress.
	reopened := 0
	for _, tk := range l.Tasks {
		switch {
		case tk.Status == tally.StatusCompleted && !completedByClients[tk.ID]:
			t.Errorf("task #%s is completed but no client completed it", tk.ID)
		case tk.Status != tally.StatusCompleted && completedByClients[tk.ID]:
			reopened++
		}
	}
	if reopened > 1 {
		t.Errorf("%d tasks a client completed are not completed: a completion was lost", reopened)
	}
	for _, w := range stores {
		for _, v := range w.violations {
			t.Error(v)
		}
	}
	started, commits := 0, 0
	for _, w := range stores {
		started += w.started
		commits += w.commits
	}
	if started == 0 {
		t.Error("no task was ever in progress: the test did not exercise the rule")
	}
	t.Logf("%d creates, %d tasks completed, %d commits", total, len(completedByClients), commits)
}
