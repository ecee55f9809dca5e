package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
	"github.com/tallyhq/tally/tasks"
)

// requireNode returns the node binary and checks the test client's
// packages are installed (scripts/deps-node). Missing is a skip on a
// developer's machine and a failure in CI, where deps-node has run.
func requireNode(t *testing.T) string {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("CI") != "" {
		fail = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fail("node not found: install Node.js 20+ to run the TypeScript MCP client test")
	}
	if _, err := os.Stat("testclient/node_modules/@modelcontextprotocol/sdk/package.json"); err != nil {
		fail("testclient/node_modules is missing: run scripts/deps-node (%v)", err)
	}
	return node
}

// entry is one line of the client's transcript.
type entry struct {
	N          int             `json:"n"`
	Client     string          `json:"client"`
	Step       string          `json:"step"`
	Tool       string          `json:"tool"`
	IsError    bool            `json:"isError"`
	Text       []string        `json:"text"`
	Structured map[string]any  `json:"structured"`
	Tools      []toolListing   `json:"tools"`
	Wait       string          `json:"wait"`
	Done       bool            `json:"done"`
	Args       json.RawMessage `json:"args"`
}

type toolListing struct {
	Name        string         `json:"name"`
	InputSchema map[string]any `json:"inputSchema"`
}

// runSession runs session.mjs with args, approving the plan of list
// "planned" with the real CLI when the script asks, and returns the
// transcript by step.
func runSession(t *testing.T, db string, env []string, args ...string) map[string]entry {
	t.Helper()
	node := requireNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"testclient/session.mjs"}, args...)...)
	// The client passes its environment on to the tally it starts.
	cmd.Env = testhome.Environ(homeBeside(db), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	steps := map[string]entry{}
	done := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		raw.Write(sc.Bytes())
		raw.WriteByte('\n')
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("transcript line %q: %v", sc.Text(), err)
		}
		switch {
		case e.Wait == "approve planned":
			runCLI(t, db, "tasks", "approve", "planned")
			fmt.Fprintln(stdin, "ok")
		case e.Done:
			done = true
		case e.Step != "":
			steps[e.Step] = e
		}
	}
	err = cmd.Wait()
	saveArtifact(t, "mcp-transcript-"+args[0]+".jsonl", raw.Bytes())
	if err != nil || !done {
		t.Fatalf("session.mjs %s: %v (done=%v)\nstderr:\n%s", args[0], err, done, stderr.String())
	}
	return steps
}

// saveArtifact keeps the transcript for people to read: in $TALLY_ARTIFACTS,
// else artifacts/ at the root of the repository (ignored by git).
func saveArtifact(t *testing.T, name string, data []byte) {
	dir := os.Getenv("TALLY_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("artifact %s not saved: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Logf("artifact %s not saved: %v", name, err)
	}
}

// runCLI runs the real tally command line on db.
func runCLI(t *testing.T, db string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tallyBinary(t), append([]string{"--db", db}, args...)...)
	cmd.Env = testhome.Environ(homeBeside(db))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tally %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestTypeScriptClient_Stdio(t *testing.T) {
	requireNode(t)
	db := filepath.Join(t.TempDir(), "tally.db")
	runCLI(t, db, "tasks", "plan", "planned")
	steps := runSession(t, db, []string{"TALLY_LIST=agent-tasks"}, "stdio", tallyBinary(t), "--db", db, "mcp")
	checkSession(t, steps)
	// TALLY_LIST names the list of calls that name none, in every process.
	if got := steps["create-1"].Structured["list"]; got != "agent-tasks" {
		t.Errorf("default list = %v, want TALLY_LIST's agent-tasks", got)
	}
	if got := steps["default-list-b"].Structured["list"]; got != "agent-tasks" {
		t.Errorf("second process's default list = %v, want agent-tasks", got)
	}
	if n := len(tasksOf(steps["default-list-b"])); n != 1 {
		t.Errorf("second process sees %d tasks on the shared list, want the 1 the first created", n)
	}
	checkSessionsShow(t, db)
}

func TestTypeScriptClient_HTTP(t *testing.T) {
	requireNode(t)
	db := filepath.Join(t.TempDir(), "tally.db")
	st := openStore(t, db)
	if _, err := st.UpdateTaskList(context.Background(), "planned", func(l *tasks.List) error {
		l.SetMode(tasks.ModePlan, time.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", NewHTTPHandler(Options{Store: st}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	steps := runSession(t, db, nil, "http", srv.URL+"/mcp")
	checkSession(t, steps)
	// Without TALLY_LIST each MCP session has a list of its own.
	la, _ := steps["create-1"].Structured["list"].(string)
	lb, _ := steps["default-list-b"].Structured["list"].(string)
	if !strings.HasPrefix(la, "mcp-") || !strings.HasPrefix(lb, "mcp-") || la == lb {
		t.Errorf("per-session lists: a=%q b=%q, want two different mcp-… names", la, lb)
	}
	if n := len(tasksOf(steps["default-list-b"])); n != 0 {
		t.Errorf("a new session's own list has %d tasks, want 0", n)
	}
	checkSessionsShow(t, db)
}

// checkSessionsShow: the lists are sessions of agent tally for every
// other surface, read here through the real CLI.
func checkSessionsShow(t *testing.T, db string) {
	t.Helper()
	out := runCLI(t, db, "sessions", "--agent", "tally")
	for _, want := range []string{"tally:team", "tally:hermes", "tally:codex", "tally:planned"} {
		if !strings.Contains(out, want) {
			t.Errorf("tally sessions does not list %s:\n%s", want, out)
		}
	}
	if show := runCLI(t, db, "show", "tally:team"); !strings.Contains(show, "Refactor the store") {
		t.Errorf("tally show tally:team:\n%s", show)
	}
}

func tasksOf(e entry) []map[string]any {
	raw, _ := e.Structured["tasks"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		m, _ := r.(map[string]any)
		out = append(out, m)
	}
	return out
}

func taskByID(e entry, id string) map[string]any {
	for _, tk := range tasksOf(e) {
		if tk["id"] == id {
			return tk
		}
	}
	return nil
}

func text(e entry) string { return strings.Join(e.Text, "\n") }

// checkSession checks the transcript against the rules, step by step.
func checkSession(t *testing.T, steps map[string]entry) {
	t.Helper()
	get := func(step string) entry {
		e, ok := steps[step]
		if !ok {
			t.Fatalf("transcript has no step %q", step)
		}
		return e
	}
	ok := func(step string) entry {
		e := get(step)
		if e.IsError {
			t.Errorf("%s: unexpected tool error: %s", step, text(e))
		}
		return e
	}
	refused := func(step string, wants ...string) {
		e := get(step)
		if !e.IsError {
			t.Errorf("%s: accepted, want a tool error: %s", step, text(e))
			return
		}
		for _, w := range wants {
			if !strings.Contains(text(e), w) {
				t.Errorf("%s: error %q does not say %q", step, text(e), w)
			}
		}
	}

	var names []string
	for _, tl := range steps["listTools"].Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "todo_write", "update_plan"}; !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}

	for _, s := range []string{"list-no-arguments", "list-empty-arguments"} {
		if e := ok(s); len(tasksOf(e)) != 0 {
			t.Errorf("%s: %v", s, e.Structured)
		}
	}
	for i := 1; i <= 4; i++ {
		e := ok(fmt.Sprintf("create-%d", i))
		if task, _ := e.Structured["task"].(map[string]any); task["id"] != fmt.Sprint(i) {
			t.Errorf("create-%d: task %v, want id %q", i, task, fmt.Sprint(i))
		}
	}
	ok("link-2")
	ok("link-3")
	if task, _ := ok("get-1-blocks").Structured["task"].(map[string]any); fmt.Sprint(task["blocks"]) != "[2 3]" {
		t.Errorf("task 1 blocks %v, want [2 3] (links kept both ways)", task["blocks"])
	}
	lb := ok("list-blocked")
	for id, want := range map[string]bool{"1": false, "2": true, "3": true, "4": false} {
		if got := taskByID(lb, id)["blocked"]; got != want {
			t.Errorf("before #1 is done, task %s blocked = %v, want %v", id, got, want)
		}
	}
	refused("cycle", "cycle")
	refused("start-blocked", "#1", "blocked")
	if sc, _ := ok("start-1").Structured["statusChange"].(map[string]any); sc["to"] != "in_progress" {
		t.Errorf("start-1 statusChange %v", sc)
	}
	refused("start-second", "#1", "already in progress")
	refused("claim-taken", "agent-a")
	if c := ok("complete-1"); !strings.Contains(text(c), "now unblocked: #2, #3") {
		t.Errorf("complete-1 does not say what it unblocked: %s", text(c))
	}
	lu := ok("list-unblocked")
	for _, id := range []string{"2", "3"} {
		if taskByID(lu, id)["blocked"] != false {
			t.Errorf("after #1 completed, #%s still blocked", id)
		}
	}
	ok("delete-4")
	if taskByID(ok("list-after-delete"), "4") != nil {
		t.Error("deleted task #4 still listed")
	}
	if g := get("get-deleted"); g.Structured["task"] != nil || !strings.Contains(text(g), "deleted") {
		t.Errorf("TaskGet of a deleted task: %v %s", g.Structured, text(g))
	}
	refused("bad-status", "\"done\"", "pending, in_progress, completed, deleted")
	refused("bad-field", "taskID", "taskId")
	refused("bad-id", "99", "1, 2, 3")
	refused("bad-create", "subject")
	ok("start-2")
	if ok("complete-2").Structured["verificationNudgeNeeded"] != false {
		t.Error("nudge after the second completion")
	}
	c3 := ok("complete-3")
	if c3.Structured["verificationNudgeNeeded"] != true || !strings.Contains(text(c3), verificationNudge) {
		t.Errorf("third completion without a verifying task: %v %s", c3.Structured, text(c3))
	}
	fresh := ok("create-fresh")
	if task, _ := fresh.Structured["task"].(map[string]any); task["id"] != "1" || fresh.Structured["freshList"] != true {
		t.Errorf("TaskCreate on an all-done list: %v, want id 1 of a fresh list", fresh.Structured)
	}
	if n := len(tasksOf(ok("list-fresh"))); n != 1 {
		t.Errorf("fresh list has %d tasks, want 1", n)
	}
	wantSummary := func(step string, want map[string]float64) {
		sum, _ := ok(step).Structured["summary"].(map[string]any)
		for k, v := range want {
			if sum[k] != v {
				t.Errorf("%s: summary %v, want %s=%v", step, sum, k, v)
			}
		}
	}
	wantSummary("todo-replace", map[string]float64{"total": 3, "pending": 1, "in_progress": 1, "completed": 1, "cancelled": 0})
	wantSummary("todo-merge", map[string]float64{"total": 4, "pending": 1, "in_progress": 0, "completed": 2, "cancelled": 1})
	refused("todo-two-active", "only one")
	refused("todo-bad-status", "waiting", "pending, in_progress, completed, cancelled")
	if p := ok("plan-update"); !strings.HasPrefix(text(p), "Plan updated") {
		t.Errorf("update_plan answer %q, want Codex's \"Plan updated\"", text(p))
	}
	refused("planmode-update-plan", "plan mode", "update_plan")
	ok("planmode-create")
	refused("planmode-start", "plan mode", "tally tasks approve planned")
	ok("approved-start")
	ok("team-create")
	ok("team-claim-b")
	refused("team-claim-a", "bob")
	if tk := taskByID(ok("team-list-a"), "1"); tk["owner"] != "bob" || tk["status"] != "in_progress" {
		t.Errorf("client a sees team task %v, want in_progress by bob", tk)
	}
}
