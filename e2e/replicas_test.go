package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// teamList is the MCP list the replica tests write; the board shows it as
// the session tally:team.
const teamList = "team"

// board follows one browser's event stream: what it shows of tally:team
// (its task titles), where it stands, and every snapshot it was sent.
type board struct {
	mu        sync.Mutex
	titles    []string
	lastID    string
	snapshots int
	changed   chan struct{}
	ended     chan struct{} // closed when the stream ends
}

type sessionJSON struct {
	ID    string `json:"id"`
	Items []struct {
		Title string `json:"title"`
	} `json:"items"`
}

// watchBoard opens the stream of the replica at base, resuming after
// lastID if given.
func watchBoard(t *testing.T, base, lastID string) *board {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := servetest.Dial(ctx, base, lastID)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	b := &board{changed: make(chan struct{}, 1), ended: make(chan struct{}), lastID: lastID}
	go func() {
		defer close(b.ended)
		for {
			ev, err := s.Next()
			if err != nil {
				return
			}
			b.apply(t, ev)
		}
	}()
	t.Cleanup(func() { cancel(); s.Close(); <-b.ended })
	return b
}

func (b *board) apply(t *testing.T, ev servetest.Event) {
	var sessions []sessionJSON
	switch ev.Type {
	case "snapshot":
		var snap struct{ Sessions []sessionJSON }
		if err := json.Unmarshal(ev.Data, &snap); err != nil {
			t.Errorf("snapshot: %v", err)
			return
		}
		sessions = snap.Sessions
	case "session_updated":
		var s sessionJSON
		if err := json.Unmarshal(ev.Data, &s); err != nil {
			t.Errorf("session_updated: %v", err)
			return
		}
		sessions = []sessionJSON{s}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if ev.ID != "" {
		b.lastID = ev.ID
	}
	if ev.Type == "snapshot" {
		b.snapshots++
	}
	for _, s := range sessions {
		if s.ID == "tally:"+teamList {
			b.titles = b.titles[:0]
			for _, it := range s.Items {
				b.titles = append(b.titles, it.Title)
			}
		}
	}
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

// waitTasks waits until the board shows n tasks of tally:team.
func (b *board) waitTasks(t *testing.T, n int, what string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		b.mu.Lock()
		got := len(b.titles)
		b.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-b.changed:
		case <-deadline:
			t.Fatalf("%s: the board shows %d tasks of tally:%s, want %d", what, got, teamList, n)
		}
	}
}

func (b *board) state() (titles []string, lastID string, snapshots int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.titles...), b.lastID, b.snapshots
}

func mcpClient(t testing.TB, base string) *sdk.ClientSession {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).
		Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: base + "mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func createTask(cs *sdk.ClientSession, subject string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "TaskCreate",
		Arguments: map[string]any{"subject": subject, "description": "d", "list": teamList}})
	if err == nil && res.IsError {
		err = fmt.Errorf("TaskCreate %s: tool error %v", subject, res.Content)
	}
	return err
}

// TestReplicas_OneBoardAcrossServers: two `tally serve` replicas on one
// PostgreSQL database. A task created through replica A (an MCP call over
// HTTP) shows on a board connected to replica B. Then, while tasks keep
// being created through B, A is killed (SIGKILL): B's board keeps
// updating, and A's board reconnects to B — which sends it a snapshot, as
// it cannot know what A sent — and ends up showing every task.
func TestReplicas_OneBoardAcrossServers(t *testing.T) {
	url := pgtest.DB(t)
	a := servetest.Start(t, tallyBin, url)
	b := servetest.Start(t, tallyBin, url)
	onA, onB := watchBoard(t, a.URL, ""), watchBoard(t, b.URL, "")

	if err := createTask(mcpClient(t, a.URL), "created through A"); err != nil {
		t.Fatal(err)
	}
	onB.waitTasks(t, 1, "a task created through replica A, on replica B's board")
	onA.waitTasks(t, 1, "the same task on replica A's board")

	const total = 40
	throughB := mcpClient(t, b.URL)
	errs := make(chan error, 1)
	go func() {
		for i := 2; i <= total; i++ {
			if err := createTask(throughB, fmt.Sprintf("task %d", i)); err != nil {
				errs <- err
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		errs <- nil
	}()
	onB.waitTasks(t, 10, "tasks created through B before A is killed")
	a.Kill()
	select {
	case <-onA.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("A's board still streams after A was killed")
	}
	_, lastFromA, _ := onA.state()
	// The browser's EventSource reconnects with the last id it saw; the
	// load balancer now sends it to B.
	moved := watchBoard(t, b.URL, lastFromA)
	if err := <-errs; err != nil {
		t.Fatalf("creating tasks through B while A died: %v", err)
	}
	onB.waitTasks(t, total, "B's board, after A died")
	moved.waitTasks(t, total, "A's board, reconnected to B")
	if _, _, snaps := moved.state(); snaps != 1 {
		t.Errorf("A's board reconnected to B got %d snapshots, want 1: B cannot replay what A sent", snaps)
	}
	titles, _, _ := moved.state()
	seen := map[string]bool{}
	for _, title := range titles {
		if seen[title] {
			t.Errorf("task %q shows twice", title)
		}
		seen[title] = true
	}
	if len(titles) != total || !seen["created through A"] || !seen[fmt.Sprintf("task %d", total)] {
		t.Errorf("the reconnected board shows %d tasks %v, want all %d", len(titles), titles, total)
	}
}
