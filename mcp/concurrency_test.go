package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// commitChecker checks every committed state of one list, in commit
// order: the rules hold in each state and from each state to the next.
type commitChecker struct {
	mu         sync.Mutex
	prev       *tasks.List
	commits    int
	started    int // commits with a task in progress
	violations []string
}

func (c *commitChecker) check(l tasks.List) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.commits++
	bad := func(format string, args ...any) {
		c.violations = append(c.violations, fmt.Sprintf("commit %d: ", c.commits)+fmt.Sprintf(format, args...))
	}
	byID := map[string]*tasks.Task{}
	var inProgress []string
	for i := range l.Tasks {
		tk := &l.Tasks[i]
		if byID[tk.ID] != nil {
			bad("id %s given to two tasks", tk.ID)
		}
		byID[tk.ID] = tk
		if tk.Status == tally.StatusInProgress {
			inProgress = append(inProgress, tk.ID)
		}
	}
	if len(inProgress) > 1 {
		bad("%d tasks in progress: %v", len(inProgress), inProgress)
	}
	if len(inProgress) > 0 {
		c.started++
	}
	was := map[string]tally.Status{}
	if c.prev != nil {
		for _, tk := range c.prev.Tasks {
			was[tk.ID] = tk.Status
			if byID[tk.ID] == nil {
				bad("task #%s (%s) vanished", tk.ID, tk.Title)
			}
		}
		if l.Generation != c.prev.Generation {
			bad("the list started afresh (generation %d → %d) under the clients", c.prev.Generation, l.Generation)
		}
	}
	for _, id := range inProgress {
		if was[id] == tally.StatusInProgress {
			continue
		}
		for _, b := range byID[id].BlockedBy {
			if blocker := byID[b]; blocker != nil && blocker.Status.Open() {
				bad("task #%s started while its blocker #%s was %s", id, b, blocker.Status)
			}
		}
	}
	c.prev = &l
}

func (c *commitChecker) report(t *testing.T) {
	t.Helper()
	for _, v := range c.violations {
		t.Error(v)
	}
	if c.started == 0 {
		t.Error("no task was ever in progress: the test did not exercise the rules")
	}
}

// watchedStore hands every list its store is about to commit to the
// checker. fn runs inside the store's write transaction, and the store
// serialises those, so the checker sees the states in commit order.
type watchedStore struct {
	Store
	c *commitChecker
}

func (w *watchedStore) UpdateTaskList(ctx context.Context, name string, fn func(*tasks.List) error) (tasks.List, error) {
	return w.Store.UpdateTaskList(ctx, name, func(l *tasks.List) error {
		if err := fn(l); err != nil {
			return err
		}
		w.c.check(l.Clone())
		return nil
	})
}

// TestConcurrentClients: 8 clients × 500 calls on one list through one
// server process (tally serve with 8 sessions). No update is lost, ids are
// unique, and no committed state breaks a rule.
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
	checker := &commitChecker{}
	stores := make([]*watchedStore, conns)
	for k := range stores {
		stores[k] = &watchedStore{Store: openStore(t, db), c: checker}
	}
	sessions := make([]*sdk.ClientSession, clients)
	for k := range sessions {
		sessions[k] = connect(t, Options{Store: stores[k%conns]})
	}
	results := runWorkload(t, sessions, ops)
	checkFinal(t, liveTasks(t, stores[0], sharedList), results)
	checker.report(t)
	t.Logf("%d commits checked", checker.commits)
}

// sharedList is the list every client of the workload works on.
const sharedList = "shared"

// clientResult is what one client of the workload did and was told.
type clientResult struct {
	created []string
	meta    int
	done    []string
	blocked int // starts refused for open blockers
}

// runWorkload has each session make ops calls on sharedList at random:
// create tasks, start one (as its owner) and complete it, link tasks by
// blockers, and count its own calls in the metadata of task #1. Task #1
// stays pending throughout, so the list is never all done and never starts
// afresh under the clients.
func runWorkload(t *testing.T, sessions []*sdk.ClientSession, ops int) []clientResult {
	t.Helper()
	list := func(args map[string]any) map[string]any { args["list"] = sharedList; return args }
	if a := call(t, sessions[0], "TaskCreate", list(map[string]any{"subject": "anchor", "description": "kept pending"})); a.IsError {
		t.Fatal(a.Text)
	}
	clients := len(sessions)
	results := make([]clientResult, clients)
	randomID := func(r *rand.Rand) string { return strconv.Itoa(2 + r.IntN(clients*ops/10)) }
	var wg sync.WaitGroup
	for k, cs := range sessions {
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
					a := call(t, cs, "TaskCreate", list(map[string]any{"subject": fmt.Sprintf("%s-%d", me, i), "description": "x"}))
					if a.IsError {
						t.Errorf("%s create: %s", me, a.Text)
						return
					}
					res.created = append(res.created, a.Out["task"].(map[string]any)["id"].(string))
				case op == 1:
					// Refused when it would be a cycle or wait on an open task
					// from in progress: the refusal is the rule at work.
					call(t, cs, "TaskUpdate", list(map[string]any{"taskId": randomID(r), "addBlockedBy": []string{randomID(r)}}))
				case op <= 3 && mine == "":
					id := randomID(r)
					a := call(t, cs, "TaskUpdate", list(map[string]any{"taskId": id, "status": "in_progress", "owner": me}))
					if !a.IsError {
						mine = id
					} else if strings.Contains(a.Text, "cannot start: it is blocked by") {
						res.blocked++
					}
				case op <= 6 && mine != "":
					if a := call(t, cs, "TaskUpdate", list(map[string]any{"taskId": mine, "status": "completed"})); a.IsError {
						t.Errorf("%s completing its own #%s: %s", me, mine, a.Text)
						return
					}
					res.done = append(res.done, mine)
					mine = ""
				default:
					a := call(t, cs, "TaskUpdate", list(map[string]any{"taskId": "1", "metadata": map[string]any{me: res.meta + 1}}))
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
	return results
}

// checkFinal checks the list the workload left: every task created is
// there once, every metadata update of every client arrived, every task
// completed was completed by a client and stays so (or, once, was started
// again by another).
func checkFinal(t *testing.T, l tasks.List, results []clientResult) {
	t.Helper()
	seen := map[string]string{}
	total, blocked := 0, 0
	completedByClients := map[string]bool{}
	for k, res := range results {
		total += len(res.created)
		blocked += res.blocked
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
	t.Logf("%d creates, %d tasks completed, %d starts refused for open blockers", total, len(completedByClients), blocked)
}

// TestCommitChecker: the checker the concurrency proofs rely on reports
// each broken rule, and nothing on a good history.
func TestCommitChecker(t *testing.T) {
	task := func(id string, s tally.Status, blockedBy ...string) tasks.Task {
		return tasks.Task{Item: tally.Item{ID: id, Title: "t" + id, Status: s, BlockedBy: blockedBy}}
	}
	list := func(ts ...tasks.Task) tasks.List { return tasks.List{Name: sharedList, Tasks: ts} }
	P, R, C := tally.StatusPending, tally.StatusInProgress, tally.StatusCompleted
	for _, tc := range []struct {
		name    string
		history []tasks.List
		want    int
	}{
		{"good", []tasks.List{
			list(task("1", P), task("2", P, "1")),
			list(task("1", R), task("2", P, "1")),
			list(task("1", C), task("2", P, "1")),
			list(task("1", C), task("2", R, "1")),
		}, 0},
		{"two in progress", []tasks.List{list(task("1", R), task("2", R))}, 1},
		{"started with an open blocker", []tasks.List{
			list(task("1", P), task("2", P, "1")),
			list(task("1", P), task("2", R, "1")),
		}, 1},
		{"duplicate id", []tasks.List{list(task("1", P), task("1", P))}, 1},
		{"a task vanished", []tasks.List{list(task("1", P), task("2", R)), list(task("1", R))}, 1},
	} {
		c := &commitChecker{}
		for _, l := range tc.history {
			c.check(l)
		}
		if len(c.violations) != tc.want {
			t.Errorf("%s: %d violations %v, want %d", tc.name, len(c.violations), c.violations, tc.want)
		}
	}
}
