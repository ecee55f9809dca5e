package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/tui"
)

// planCapture is a real Claude Code session that planned into docs/por and
// wrote six progress markers in its replies.
const planCapture = "../plan/testdata/claude-code-2.1.330-plan-markers"

const planSession = "68c26bdc-7510-48dd-82af-1c0fcfd325ad"

// planHome makes a Claude home holding the capture's session as it stood
// after the reply carrying its nth marker (1 to 6), run in a copy of the
// capture's project, whose plan is as the agent wrote it. It returns the
// home, the project and the session log's path.
func planHome(t *testing.T, upTo int) (home, project, log string) {
	t.Helper()
	project = t.TempDir()
	copyTree(t, project, filepath.Join(planCapture, "work"))
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	// The session ran in the capture machine's work folder: it runs in
	// the copy here.
	data = bytes.ReplaceAll(data, []byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(project))
	home = t.TempDir()
	dir := filepath.Join(home, "projects", "-project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	log = filepath.Join(dir, planSession+".jsonl")
	writeLines(t, log, data, upTo)
	return home, project, log
}

// writeLines writes the lines of data up to the one holding its nth
// marker (all of them when n is 6).
func writeLines(t *testing.T, path string, data []byte, n int) {
	t.Helper()
	lines := bytes.SplitAfter(data, []byte("\n"))
	seen, end := 0, len(lines)
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"assistant"`)) {
			seen += bytes.Count(l, []byte(`progress: T`))
			if seen >= n && n < 6 {
				end = i + 1
				break
			}
		}
	}
	if err := os.WriteFile(path, bytes.Join(lines[:end], nil), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The "done when", through the commands a user runs: the agent
// wrote "progress: T001.S1 done" in its reply and, with no other step,
// tally scan leaves task.yaml with S1 complete and S2 in progress, the
// ledger with the entry (session and line), tally task showing T001 1/2,
// and tally show the plan and what became of each marker. Scanning again
// applies nothing twice; the rest of the session completes the plan.
func TestPlan_scanAppliesTheAgentsMarkers(t *testing.T) {
	home, project, log := planHome(t, 2) // T001 start, T001.S1 done
	st := newStore(t)
	env := map[string]string{"CLAUDE_CONFIG_DIR": home}
	if code, _, errOut := run(t, st, env, "scan"); code != ExitOK {
		t.Fatalf("scan: %d %s", code, errOut)
	}
	task := readText(t, filepath.Join(project, "docs/por/T001-greeting-module", plan.TaskFile))
	if !strings.Contains(task, "status: active") || strings.Count(task, "status: complete") != 1 || strings.Count(task, "status: in_progress") != 1 {
		t.Fatalf("T001's task.yaml after the scan:\n%s", task)
	}
	ledgerPath := filepath.Join(project, "docs/por", plan.LedgerFile)
	ledger := readText(t, ledgerPath)
	if !strings.Contains(ledger, `"type":"step_completed","at":"2026-11-23T`) || !strings.Contains(ledger, `"key":"`+planSession+`:`) ||
		!strings.Contains(ledger, `"by":"`+planSession+`"`) {
		t.Fatalf("ledger:\n%s", ledger)
	}
	code, out, _ := run(t, st, env, "task", "--project", project)
	if code != ExitOK || !strings.Contains(out, "→ T001  Greeting module      1/2  S2: Add a unit test") {
		t.Fatalf("tally task:\n%s", out)
	}
	code, out, _ = run(t, st, env, "show", planSession[:8])
	if code != ExitOK || !strings.Contains(out, "\nplan 0/2 → T001 [S2]\n") ||
		!strings.Contains(out, "✓ progress: T001.S1 done  applied") {
		t.Fatalf("tally show:\n%s", out)
	}

	// Scanning again, or reading the log again from its start, applies
	// nothing twice.
	run(t, st, env, "scan")
	if got := readText(t, ledgerPath); got != ledger {
		t.Fatalf("a second scan wrote to the ledger:\n%s", strings.TrimPrefix(got, ledger))
	}
	fresh := newStore(t)
	run(t, fresh, env, "scan")
	if got := readText(t, ledgerPath); got != ledger {
		t.Fatalf("another index reading the log from 0 wrote to the ledger:\n%s", strings.TrimPrefix(got, ledger))
	}

	// The rest of the session.
	data := bytes.ReplaceAll(must(os.ReadFile(mustGlob(t, planCapture+"/config/projects/*/*.jsonl"))),
		[]byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(project))
	writeLines(t, log, data, 6)
	run(t, st, env, "scan")
	code, out, _ = run(t, st, env, "task", "--project", project)
	if code != ExitOK || !strings.HasPrefix(out, "Progress: 2/2 (100%)") {
		t.Fatalf("tally task at the end:\n%s", out)
	}
	code, out, _ = run(t, st, env, "timeline", "--project", project)
	if code != ExitOK || !strings.Contains(out, "✓ All complete (2/2)") || !strings.Contains(out, "⚠ T001 S2 blocked: pytest is not installed") {
		t.Fatalf("tally timeline:\n%s", out)
	}
	states, err := st.SessionMarkers(t.Context(), planSession)
	if err != nil || len(states) != 6 {
		t.Fatalf("markers recorded: %d, %v", len(states), err)
	}
	for _, m := range states {
		if m.Result.Verdict != tally.MarkerApplied {
			t.Errorf("%s: %v %s", m.Key, m.Result.Verdict, m.Result.Reason)
		}
	}
}

// tally task reads the project the command runs in (Env.Dir: its git
// root), not the process's working directory, with the plan folder the
// settings give it.
func TestPlan_taskReadsTheWorkingProject(t *testing.T) {
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyTree(t, filepath.Join(project, "planning"), filepath.Join(planCapture, "work/docs/por"))
	sub := filepath.Join(project, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[plans]\nfolder = \"planning\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	e := testEnv(nil, &out, &errOut, map[string]string{"TALLY_CONFIG": cfg})
	e.Dir = sub
	if code := Run(t.Context(), e, []string{"task"}); code != ExitOK || !strings.Contains(out.String(), "○ T001  Greeting module      0/2") {
		t.Fatalf("tally task in %s: %d\n%s%s", sub, code, out.String(), errOut.String())
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mustGlob(t *testing.T, pattern string) string {
	t.Helper()
	m, _ := filepath.Glob(pattern)
	if len(m) != 1 {
		t.Fatalf("%s: %v", pattern, m)
	}
	return m[0]
}

// A live command tells the plan news the settings ask for: the agent's
// blocked step, each task completed, the plan complete, to the webhook
// the settings name, as the markers are applied.
func TestPlan_liveCommandTellsPlanNews(t *testing.T) {
	got := make(chan string, 16)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct{ Events []struct{ Kind, Text string } }
		if err := json.NewDecoder(r.Body).Decode(&m); err == nil {
			for _, e := range m.Events {
				got <- e.Kind + " | " + e.Text
			}
		}
	}))
	defer hook.Close()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	settings := "[notify]\nevents = [\"step_blocked\", \"task_complete\", \"plan_complete\"]\ndesktop = false\nburst_window = \"0s\"\n\n" +
		"[[notify.webhook]]\nurl = \"" + hook.URL + "/tally\"\nformat = \"json\"\n"
	if err := os.WriteFile(cfg, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	home, project, log := planHome(t, 1)
	f := startFollowingIn(t, home, map[string]string{"TALLY_CONFIG": cfg}, "watch", "--json")
	data := bytes.ReplaceAll(must(os.ReadFile(mustGlob(t, planCapture+"/config/projects/*/*.jsonl"))),
		[]byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(project))
	writeLines(t, log, data, 6)
	want := []string{"step_blocked", "task_complete", "task_complete", "plan_complete"}
	var kinds, texts []string
	for len(kinds) < len(want) {
		select {
		case e := <-got:
			kind, text, _ := strings.Cut(e, " | ")
			kinds, texts = append(kinds, kind), append(texts, text)
		case <-time.After(20 * time.Second):
			t.Fatalf("news told: %v", texts)
		}
	}
	f.stop()
	if strings.Join(kinds, " ") != strings.Join(want, " ") || !strings.Contains(texts[0], "is blocked at T001.S2: pytest is not installed") ||
		!strings.Contains(texts[3], "completed its plan: all 2 tasks") {
		t.Fatalf("news told:\n%s", strings.Join(texts, "\n"))
	}
}

// The terminal UI's Task Panel of a session that follows its project's
// plan (it writes markers) is the plan's line, in the plan's stage, and
// follows the plan as markers move it; a session with a list of its own
// and no markers keeps its list's headline.
func TestPlan_taskPanelLine(t *testing.T) {
	home, project, log := planHome(t, 2)
	st := newStore(t)
	env := map[string]string{"CLAUDE_CONFIG_DIR": home}
	if code, _, errOut := run(t, st, env, "scan"); code != ExitOK {
		t.Fatalf("scan: %s", errOut)
	}
	rec, err := st.Record(t.Context(), planSession)
	if err != nil {
		t.Fatal(err)
	}
	a := &app{env: testEnv(st, &syncBuffer{}, &syncBuffer{}, env)}
	l, err := a.newLive(t.Context(), st, liveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plans := l.plans
	h := newPlanHeadliner(t.Context(), plans)
	s := rec.Session(fixedNow)
	if got, ok := h.Headline(&s); !ok || got.Line != "0/2 → T001 [S2]" || got.State != tui.PanelWorking || got.Done != 0 || got.Total != 2 {
		t.Fatalf("the panel: %+v %v", got, ok)
	}
	// The expanded panel's rows: the plan's tasks, with their steps.
	if got, _ := h.Headline(&s); len(got.Plan) != 2 || got.Plan[0].ID != "T001" || got.Plan[0].Current != "S2" || len(got.Plan[1].Steps) != 2 {
		t.Fatalf("the panel's tasks: %+v", got.Plan)
	}
	withList := s
	withList.Markers, withList.Progress = nil, tally.Progress{Done: 1, Total: 3}
	if _, ok := h.Headline(&withList); ok {
		t.Fatal("a session with its own list and no markers shows the plan")
	}
	elsewhere := s
	elsewhere.Project = t.TempDir()
	if _, ok := h.Headline(&elsewhere); ok {
		t.Fatal("a project without a plan has a plan line")
	}

	// The rest of the session moves the plan: the panel follows.
	data := bytes.ReplaceAll(must(os.ReadFile(mustGlob(t, planCapture+"/config/projects/*/*.jsonl"))),
		[]byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(project))
	writeLines(t, log, data, 6)
	if _, err := l.ix.Scan(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The store holds the markers the scan read; the headliner's planner
	// applies them, as the dashboard's does.
	if err := plans.ApplyPending(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := h.Headline(&s)
		if got.Line == "✓ 2/2 Complete" && got.State == tui.PanelComplete {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the panel after the session: %+v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A log whose working folder is relative (".") names no project: it is
// not resolved against Tally's own working folder, whose plan its markers
// would otherwise move.
func TestPlan_aRelativeWorkingFolderNamesNoProject(t *testing.T) {
	home, project, log := planHome(t, 6)
	data := bytes.ReplaceAll(must(os.ReadFile(mustGlob(t, planCapture+"/config/projects/*/*.jsonl"))),
		[]byte("/tmp/capture-plan/cc/plan-markers/work"), []byte("."))
	writeLines(t, log, data, 6)
	before := snapshot(t, project)
	t.Chdir(project) // Tally runs in a folder that keeps a plan
	st := newStore(t)
	if code, _, errOut := run(t, st, map[string]string{"CLAUDE_CONFIG_DIR": home}, "scan"); code != ExitOK {
		t.Fatalf("scan: %d %s", code, errOut)
	}
	if !sameSnapshot(before, snapshot(t, project)) {
		t.Fatalf("a log with a relative cwd changed the plan of Tally's working folder:\n%s", readText(t, filepath.Join(project, "docs/por", plan.LedgerFile)))
	}
	states, err := st.SessionMarkers(t.Context(), planSession)
	if err != nil || len(states) == 0 {
		t.Fatalf("markers: %+v %v", states, err)
	}
	for _, m := range states {
		if m.Result.Verdict != tally.MarkerNoPlan {
			t.Errorf("%s: %v %s", m.Key, m.Result.Verdict, m.Result.Reason)
		}
	}
}

// tally push applies the markers it commits while it pushes, as every
// live command does: the agent's markers move its project's plan, and
// are not left pending until the next command that runs the planner.
func TestPlan_pushAppliesTheMarkersItCommits(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var b tally.PushBatch
		if err := json.NewDecoder(zr).Decode(&b); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(tally.PushAck{Acked: b.To, Applied: len(b.Sessions)})
	}))
	defer server.Close()
	home, project, log := planHome(t, 1)
	f := startFollowingIn(t, home, nil, "push", "--server", server.URL, "--token", "tly_test", "--machine", "laptop")
	defer f.stop()
	data := bytes.ReplaceAll(must(os.ReadFile(mustGlob(t, planCapture+"/config/projects/*/*.jsonl"))),
		[]byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(project))
	writeLines(t, log, data, 2) // T001.S1 done, written while pushing
	task := filepath.Join(project, "docs/por/T001-greeting-module", plan.TaskFile)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if strings.Count(readText(t, task), "status: complete") == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("T001's task.yaml while pushing, after the agent's marker:\n%s", readText(t, task))
		}
	}
}

// A project with no plan folder but Kiro specs shows them as its plan in
// tally show and tally sessions, and the agent's markers write nothing
// among Kiro's files.
func TestPlan_kiroSpecsShowWhereThereIsNoPlanFolder(t *testing.T) {
	home, project, _ := planHome(t, 2)
	if err := os.RemoveAll(filepath.Join(project, "docs/por")); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(project, plan.KiroSpecs, "greeting")
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	tasks := "# Implementation Plan\n\n- [x] 1. Write greet.py\n  - _Requirements: 1.1_\n- [-] 2. Add a unit test\n"
	if err := os.WriteFile(filepath.Join(spec, plan.KiroTasks), []byte(tasks), 0o644); err != nil {
		t.Fatal(err)
	}
	st := newStore(t)
	env := map[string]string{"CLAUDE_CONFIG_DIR": home}
	if code, _, errOut := run(t, st, env, "scan"); code != ExitOK {
		t.Fatalf("scan: %s", errOut)
	}
	code, out, _ := run(t, st, env, "show", planSession[:8])
	if code != ExitOK || !strings.Contains(out, "\nplan 0/1 → T001 [S2]\n") {
		t.Fatalf("tally show:\n%s", out)
	}
	des, _ := os.ReadDir(filepath.Join(project, plan.KiroSpecs))
	if len(des) != 1 || readText(t, filepath.Join(spec, plan.KiroTasks)) != tasks {
		t.Fatalf("Kiro's specs changed: %v", des)
	}
}
