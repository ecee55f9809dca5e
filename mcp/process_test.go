package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally/internal/testhome"
)

// startProcess runs the real `tally mcp` binary on db and connects a Go
// SDK client to it over stdio.
func startProcess(t testing.TB, db, list string) (*sdk.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(tallyBinary(t), "--db", db, "mcp")
	cmd.Env = testhome.Environ(homeBeside(db), "TALLY_LIST="+list)
	cmd.Stderr = os.Stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-test", Version: "1"}, nil).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, cmd
}

// TestKill9 kills `tally mcp` with SIGKILL while calls are in flight,
// restarts it, and finds every acknowledged change in the list.
func TestKill9(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tally.db")
	cs, cmd := startProcess(t, db, "durable")
	const acked = 12
	for i := 1; i <= acked; i++ {
		if a := call(t, cs, "TaskCreate", map[string]any{"subject": fmt.Sprintf("step %d", i), "description": "d"}); a.IsError {
			t.Fatal(a.Text)
		}
	}
	for _, u := range []map[string]any{
		{"taskId": "2", "addBlockedBy": []string{"1"}},
		{"taskId": "1", "status": "in_progress", "owner": "a"},
		{"taskId": "1", "status": "completed"},
		{"taskId": "5", "status": "deleted"},
		{"taskId": "2", "status": "in_progress"},
	} {
		if a := call(t, cs, "TaskUpdate", u); a.IsError {
			t.Fatal(a.Text)
		}
	}
	// Calls in flight when the process dies: each lands whole or not at
	// all; none is acknowledged.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _ = cs.CallTool(ctx, &sdk.CallToolParams{Name: "TaskCreate", Arguments: map[string]any{"subject": fmt.Sprintf("in flight %d", i), "description": "d"}})
		}()
	}
	time.Sleep(2 * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	cs.Close()

	cs2, _ := startProcess(t, db, "durable")
	defer cs2.Close()
	a := call(t, cs2, "TaskList", nil)
	if a.IsError {
		t.Fatal(a.Text)
	}
	byID := map[string]map[string]any{}
	var ids []string
	for _, raw := range a.Out["tasks"].([]any) {
		tk := raw.(map[string]any)
		byID[tk["id"].(string)] = tk
		ids = append(ids, tk["id"].(string))
	}
	for i := 1; i <= acked; i++ {
		id := strconv.Itoa(i)
		if _, ok := byID[id]; !ok && id != "5" {
			t.Errorf("acknowledged task #%s lost after kill -9; list: %v", id, ids)
		}
	}
	if _, ok := byID["5"]; ok {
		t.Error("deleted task #5 is back after kill -9")
	}
	if byID["1"]["status"] != "completed" || byID["2"]["status"] != "in_progress" || fmt.Sprint(byID["2"]["blockedBy"]) != "[1]" {
		t.Errorf("acknowledged updates lost: #1 %v, #2 %v", byID["1"], byID["2"])
	}
	// Ids stay unique after the restart, whatever the in-flight calls did.
	next := call(t, cs2, "TaskCreate", map[string]any{"subject": "after restart", "description": "d"})
	id := next.Out["task"].(map[string]any)["id"].(string)
	if _, dup := byID[id]; dup || id == "5" {
		t.Errorf("TaskCreate after the restart reused id %s (list %v)", id, ids)
	}
	if len(ids) != len(byID) {
		t.Errorf("duplicate ids after restart: %v", ids)
	}
}

// `tally mcp` started by an agent in a project with a plan folder tells
// the agent the plan protocol; started elsewhere it does not, nor with
// --no-protocol (as tally setup claude registers it: the SessionStart
// hook gives the protocol, and both would put it in the context twice).
func TestProcess_planProtocolWhereThereIsAPlan(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tally.db")
	withPlan, without := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(withPlan, "docs", "por"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		args []string
		want bool
	}{{withPlan, nil, true}, {without, nil, false}, {withPlan, []string{"--no-protocol"}, false}} {
		dir, want := c.dir, c.want
		cmd := exec.Command(tallyBinary(t), append([]string{"--db", db, "mcp"}, c.args...)...)
		cmd.Dir = dir
		cmd.Env = testhome.Environ(t.TempDir())
		cmd.Stderr = os.Stderr
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-test", Version: "1"}, nil).
			Connect(context.Background(), &sdk.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(cs.InitializeResult().Instructions, "## Task Management Protocol")
		cs.Close()
		if got != want {
			t.Errorf("in %s, %v: protocol in the instructions %v, want %v", dir, c.args, got, want)
		}
	}
}
