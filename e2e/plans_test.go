package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// planCapture is a real Claude Code session that planned into docs/por
// and wrote six progress markers in its replies (its README says how).
const planCapture = "../plan/testdata/claude-code-2.1.330-plan-markers"

const captureWork = "/tmp/capture-plan/cc/plan-markers/work"

// planRun is a home and a project of the tests: tally's commands run on
// them with nothing of the machine's own agents, settings or database.
type planRun struct {
	home, claude, project, db string
}

func newPlanRun(t *testing.T) *planRun {
	t.Helper()
	r := &planRun{home: t.TempDir(), project: t.TempDir()}
	r.claude = filepath.Join(r.home, "claude")
	r.db = filepath.Join(r.home, "tally.db")
	copyTree(t, filepath.Join(planCapture, "work"), r.project)
	return r
}

func (r *planRun) env() []string { return testhome.Environ(r.home) }

func (r *planRun) cmd(db string, args ...string) *exec.Cmd {
	cmd := exec.Command(tallyBin, append([]string{"--db", db, "--claude-dir", r.claude}, args...)...)
	cmd.Env = r.env()
	cmd.Dir = r.project
	return cmd
}

// tally runs a command to completion and returns its stdout.
func (r *planRun) tally(t *testing.T, db string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := r.cmd(db, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("tally %v: %v\n%s%s", args, err, out.String(), errb.String())
	}
	return out.String()
}

// session writes the capture's session, run in the project, up to the
// reply holding its nth marker; it returns the log's path and the offset
// of each reply that holds markers.
func (r *planRun) session(t *testing.T, n int) (string, []int64) {
	t.Helper()
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(captureWork), []byte(r.project))
	var out []byte
	var offsets []int64
	seen := 0
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if seen >= n {
			break
		}
		if bytes.Contains(l, []byte(`"type":"assistant"`)) && bytes.Contains(l, []byte("progress: T")) {
			offsets = append(offsets, int64(len(out)))
			seen += bytes.Count(l, []byte("progress: T"))
		}
		out = append(out, l...)
	}
	path := filepath.Join(r.claude, "projects", "-project", filepath.Base(logs[0]))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, offsets
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The "done when", with the built binary and the real Claude Code
// capture: the agent wrote "progress: T001.S1 done" and, with no other
// step, after tally scan task.yaml shows S1 complete and S2 in progress,
// the ledger has the entry with the session and the reply's offset,
// tally task shows T001 1/2 and the board's API the same plan. Another
// Tally, with a database of its own, reading the same log applies nothing
// twice.
func TestPlan_realClaudeSessionAdvancesThePlanThroughTheIndexer(t *testing.T) {
	r := newPlanRun(t)
	_, offsets := r.session(t, 2)
	r.tally(t, r.db, "scan")

	task := readFile(t, filepath.Join(r.project, "docs/por/T001-greeting-module/task.yaml"))
	for _, want := range []string{"status: active", "id: S1\n    name: Write greet.py\n    done: greet(\"World\") returns \"Hello, World!\"\n    status: complete",
		"status: in_progress"} {
		if !strings.Contains(task, want) {
			t.Fatalf("task.yaml lacks %q:\n%s", want, task)
		}
	}
	ledgerPath := filepath.Join(r.project, "docs/por/ledger.jsonl")
	ledger := readFile(t, ledgerPath)
	want := fmt.Sprintf(`"type":"step_completed","at":"2026-11-23T16:36:41.85Z","task":"T001","step":"S1","key":"68c26bdc-7510-48dd-82af-1c0fcfd325ad:%d:0","by":"68c26bdc-7510-48dd-82af-1c0fcfd325ad"`, offsets[1])
	if !strings.Contains(ledger, want) {
		t.Fatalf("ledger lacks %s:\n%s", want, ledger)
	}
	if out := r.tally(t, r.db, "task"); !regexp.MustCompile(`→ T001\s+Greeting module\s+1/2\s+S2: Add a unit test`).MatchString(out) {
		t.Fatalf("tally task:\n%s", out)
	}

	addr := freeAddr(t)
	serve := r.cmd(r.db, "serve", "--addr", addr)
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { serve.Process.Signal(os.Interrupt); serve.Wait() }()
	var plans struct {
		Plans []struct {
			Project, Line string
			Done, Total   int
			Active        struct {
				ID, StepID  string
				Done, Total int
			}
		}
	}
	getJSON(t, "http://"+addr+"/api/plans", &plans)
	if len(plans.Plans) != 1 || plans.Plans[0].Project != r.project || plans.Plans[0].Line != "0/2 → T001 [S2]" ||
		plans.Plans[0].Active.ID != "T001" || plans.Plans[0].Active.Done != 1 || plans.Plans[0].Active.Total != 2 {
		t.Fatalf("the board's plans: %+v", plans)
	}

	r.tally(t, filepath.Join(t.TempDir(), "other.db"), "scan")
	if got := readFile(t, ledgerPath); got != ledger {
		t.Fatalf("another Tally wrote to the ledger:\n%s", strings.TrimPrefix(got, ledger))
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// getJSON polls url until it answers, then decodes its body.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(url)
		if err == nil {
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s: %s", url, res.Status)
			}
			if err := json.NewDecoder(res.Body).Decode(v); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// agent writes a Claude Code session of replies, each ending in a
// progress marker, as the real one does: its lines are the capture's
// reply line with the text, time and ids of each reply.
type agent struct {
	id, path string
	template []byte
	seq      int
}

// replyTemplate is the capture's reply carrying "progress: T001.S1 done".
func replyTemplate(t *testing.T, project string) []byte {
	t.Helper()
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(`"type":"assistant"`)) && bytes.Contains(l, []byte(`progress: T001.S1 done"`)) {
			return bytes.ReplaceAll(l, []byte(captureWork), []byte(project))
		}
	}
	t.Fatal("no reply template in the capture")
	return nil
}

var (
	textField = regexp.MustCompile(`"text":"(?:[^"\\]|\\.)*"`)
	timeField = regexp.MustCompile(`"timestamp":"[^"]*"`)
	uuidField = regexp.MustCompile(`"uuid":"[^"]*"`)
)

func newAgent(r *planRun, template []byte, id string) *agent {
	return &agent{id: id, path: filepath.Join(r.claude, "projects", "-project", id+".jsonl"),
		template: bytes.ReplaceAll(template, []byte("68c26bdc-7510-48dd-82af-1c0fcfd325ad"), []byte(id))}
}

// say appends a reply ending in marker, written now.
func (a *agent) say(t *testing.T, marker string) {
	a.seq++
	text, _ := json.Marshal(fmt.Sprintf("Reply %d of %s.\n\n%s", a.seq, a.id, marker))
	line := textField.ReplaceAll(a.template, append([]byte(`"text":`), text...))
	line = timeField.ReplaceAll(line, []byte(`"timestamp":"`+time.Now().UTC().Format("2006-01-02T15:04:05.000Z")+`"`))
	line = uuidField.ReplaceAll(line, []byte(fmt.Sprintf(`"uuid":"%s-%06d"`, a.id, a.seq)))
	f, err := os.OpenFile(a.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Error(err)
	}
}

// bigPlan writes a plan of n tasks of 4 steps into the project, as an
// agent plans, with tally task new.
func (r *planRun) bigPlan(t *testing.T, n int) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(r.project, "docs")); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		args := []string{"task", "new", fmt.Sprintf("Part %d", i), "--goal", fmt.Sprintf("part %d works", i)}
		for s := 1; s <= 4; s++ {
			args = append(args, "--step", fmt.Sprintf("Step %d", s), "--done", "it is done")
		}
		r.tally(t, r.db, args...)
	}
}

// twoAgents are two sessions sharing a plan of tasks tasks: the first
// does the odd steps of every task, the second the even ones, in task
// order, each at its own pace: a reply every pace to twice that.
func twoAgents(t *testing.T, r *planRun, tasks int, pace time.Duration) {
	template := replyTemplate(t, r.project)
	var wg sync.WaitGroup
	for w := range 2 {
		a := newAgent(r, template, fmt.Sprintf("agent%d-0000-4000-8000-00000000000%d", w+1, w+1))
		rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
		wg.Go(func() {
			for i := 1; i <= tasks; i++ {
				for s := w + 1; s <= 4; s += 2 {
					a.say(t, fmt.Sprintf("progress: T%03d.S%d done", i, s))
					time.Sleep(pace + time.Duration(rng.Int64N(int64(pace))))
				}
			}
		})
	}
	wg.Wait()
}

// ledgerEntry is the part of a ledger line the checks read.
type ledgerEntry struct {
	Type, Task, Step, Key, By, Reason string
}

func ledgerOf(t *testing.T, r *planRun) []ledgerEntry {
	t.Helper()
	var out []ledgerEntry
	sc := bufio.NewScanner(strings.NewReader(readFile(t, filepath.Join(r.project, "docs/por/ledger.jsonl"))))
	for sc.Scan() {
		var e ledgerEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("ledger line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

// checkShared: every step of every task is complete; each marker (key) is
// in the ledger once, and judged for its step (no step completed twice);
// the plan completed once; each agent's markers in the ledger in the
// order it wrote them.
func checkShared(t *testing.T, r *planRun, tasks int) {
	t.Helper()
	if out := r.tally(t, r.db, "task"); !strings.HasPrefix(out, fmt.Sprintf("Progress: %d/%d (100%%)", tasks, tasks)) {
		t.Fatalf("tally task:\n%s", out)
	}
	keys := map[string]int{}
	steps := map[string]int{}
	last := map[string]int64{}
	all := 0
	for _, e := range ledgerOf(t, r) {
		switch e.Type {
		case "step_completed", "task_completed":
			steps[e.Task+"."+e.Step]++
		case "all_complete":
			all++
		case "marker_skipped":
			t.Errorf("%s's marker %s was skipped as history", e.By, e.Key)
		}
		// A marker's own entry is judged once; the entries it brings with it
		// (a task activated, another paused as one task is active at a
		// time, the plan complete) carry its key too.
		if e.Key == "" || e.Type == "task_activated" || e.Type == "task_paused" || e.Type == "all_complete" {
			continue
		}
		keys[e.Key]++
		parts := strings.Split(e.Key, ":")
		off, _ := strconv.ParseInt(parts[len(parts)-2], 10, 64)
		if off < last[e.By] {
			t.Errorf("%s's markers out of order in the ledger at %s", e.By, e.Key)
		}
		last[e.By] = off
	}
	if all != 1 {
		t.Errorf("the plan completed %d times", all)
	}
	for k, n := range steps {
		if n != 1 {
			t.Errorf("%s completed %d times", k, n)
		}
	}
	for k, n := range keys {
		if n != 1 {
			t.Errorf("marker %s judged %d times", k, n)
		}
	}
	if len(keys) != 4*tasks {
		t.Errorf("%d markers judged, want %d", len(keys), 4*tasks)
	}
}

// waitComplete waits until the plan of tasks tasks is complete.
func waitComplete(t *testing.T, r *planRun, tasks int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, _ := r.cmd(r.db, "task").Output()
		if strings.HasPrefix(string(out), fmt.Sprintf("Progress: %d/%d", tasks, tasks)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the plan never completed:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Two agents write markers to one plan at once while tally watch follows
// them: no update is lost, none is applied twice, and each agent's
// markers are in the ledger in the order it wrote them.
func TestPlan_twoAgentsOnePlanAtOnce(t *testing.T) {
	const tasks = 5
	r := newPlanRun(t)
	r.bigPlan(t, tasks)
	if err := os.MkdirAll(filepath.Join(r.claude, "projects", "-project"), 0o755); err != nil {
		t.Fatal(err)
	}
	watch := r.cmd(r.db, "watch", "--json")
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { watch.Process.Signal(os.Interrupt); watch.Wait() }()
	time.Sleep(500 * time.Millisecond) // past the catch-up: what follows is news
	twoAgents(t, r, tasks, 5*time.Millisecond)
	waitComplete(t, r, tasks)
	checkShared(t, r, tasks)
}

// kill -9 of the Tally that applies markers, at random moments while two
// agents write them, then a restart: every marker is applied once — none
// lost between the commit of its line and the write of the plan, none
// applied again after a kill between the plan's write and the record of
// its result.
func TestPlan_killedWhileApplyingResumesExactlyOnce(t *testing.T) {
	const tasks = 8
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 2))
	kills, resumed := 0, 0
	for trial := range 3 {
		r := newPlanRun(t)
		r.bigPlan(t, tasks)
		if err := os.MkdirAll(filepath.Join(r.claude, "projects", "-project"), 0o755); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { defer close(done); twoAgents(t, r, tasks, 40*time.Millisecond) }()
		for running := true; running; {
			select {
			case <-done:
				running = false
			default:
			}
			watch := r.cmd(r.db, "watch", "--json")
			if err := watch.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
			if watch.Process.Signal(syscall.SIGKILL) == nil {
				kills++
			}
			watch.Wait()
		}
		watch := r.cmd(r.db, "watch", "--json")
		if err := watch.Start(); err != nil {
			t.Fatal(err)
		}
		// A killed process may have completed the plan's files and died
		// before its ledger entries and results: the restarted one has
		// judged every marker when none is pending.
		waitComplete(t, r, tasks)
		waitSettled(t, r, tasks)
		watch.Process.Signal(os.Interrupt)
		watch.Wait()
		checkPlanFilesOnly(t, r)
		resumed += checkKilled(t, r, tasks)
		if t.Failed() {
			t.Fatalf("trial %d (seed %d) failed", trial, seed)
		}
	}
	// A kill between a task file's write and the ledger's append is seen
	// as a marker judged "already complete" on resume.
	t.Logf("seed %d: %d kills; %d markers found applied by a killed process", seed, kills, resumed)
	if kills < 6 {
		t.Fatalf("killed only %d times: the test proved little", kills)
	}
}

// agentIDs are the sessions twoAgents writes.
var agentIDs = []string{"agent1-0000-4000-8000-000000000001", "agent2-0000-4000-8000-000000000002"}

// waitSettled waits until the store holds every marker of both agents,
// none of them pending.
func waitSettled(t *testing.T, r *planRun, tasks int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for _, id := range agentIDs {
		for {
			out, _ := r.cmd(r.db, "show", id).Output()
			if !strings.Contains(string(out), "pending") && strings.Count(string(out), "progress: T") == 2*tasks {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("markers still pending:\n%s", out)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// checkPlanFilesOnly: a writer killed mid-write left nothing behind once
// the next one took the lock.
func checkPlanFilesOnly(t *testing.T, r *planRun) {
	t.Helper()
	leftover, _ := filepath.Glob(filepath.Join(r.project, "docs/por/.*"))
	if len(leftover) != 0 {
		t.Errorf("left in the plan folder: %v", leftover)
	}
}

// checkKilled is checkShared for a run whose appliers were killed: a kill
// between a task file's write and the ledger's append leaves that
// marker's change made and its entry missing, so read again it is judged
// "already complete" — once, never applied twice.
func checkKilled(t *testing.T, r *planRun, tasks int) (resumed int) {
	t.Helper()
	if out := r.tally(t, r.db, "task"); !strings.HasPrefix(out, fmt.Sprintf("Progress: %d/%d (100%%)", tasks, tasks)) {
		t.Fatalf("tally task:\n%s", out)
	}
	keys := map[string]int{}
	steps := map[string]int{}
	for _, e := range ledgerOf(t, r) {
		switch e.Type {
		case "step_completed", "task_completed":
			steps[e.Task+"."+e.Step]++
		case "marker_rejected":
			if !strings.Contains(e.Reason, "is already complete") {
				t.Errorf("marker %s rejected: %s", e.Key, e.Reason)
			}
			resumed++
		case "marker_skipped":
			t.Errorf("marker %s skipped as history", e.Key)
		}
		// task_paused, like task_activated, is brought by a marker whose
		// own entry is counted (one task is active at a time).
		if e.Key != "" && e.Type != "task_activated" && e.Type != "task_paused" && e.Type != "all_complete" {
			keys[e.Key]++
		}
	}
	for k, n := range steps {
		if n != 1 {
			t.Errorf("%s completed %d times", k, n)
		}
	}
	for k, n := range keys {
		if n != 1 {
			t.Errorf("marker %s judged %d times", k, n)
		}
	}
	if len(keys) != 4*tasks {
		t.Errorf("%d markers judged, want %d\nledger:\n%s", len(keys), 4*tasks, readFile(t, filepath.Join(r.project, "docs/por/ledger.jsonl")))
	}
	// Every marker's result is recorded in the store, none pending.
	for _, id := range agentIDs {
		out := r.tally(t, r.db, "show", id)
		if strings.Contains(out, "pending") || strings.Count(out, "progress: T") != 2*tasks {
			t.Errorf("tally show %s:\n%s", id, out)
		}
	}
	return resumed
}
