package web_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A project's plan on the page, as a person sees it: an agent's replies
// move its plan along, and the Blueprint box above the project's sessions
// says how far — "0/2 · 0%" and the task and step under way — then, as
// the rest of the session arrives, "2/2 · 100%", without a reload.
func TestDashboard_planBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	srv := startServe(t)

	// Cut after the reply saying "progress: T001.S1 done".
	project, log, before, after := planSession(t, srv, planCapture, "/tmp/capture-plan/cc/plan-markers/work", "progress: T001.S1 done")

	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.url))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	b.do(t, chromedp.Evaluate[chromedp.Void](`window.__tallyMarker = 'no reload'`))
	dashAppend(t, log, before)

	box := `document.querySelector('#plans .plan')`
	b.poll(t, "the plan shows above the board", box+` !== null && !document.getElementById('plans').hidden`)
	if got := b.eval(t, box+`.querySelector('.plan-count').textContent`); got != "0/2 · 0%" {
		t.Errorf("Blueprint header %q, want 0/2 · 0%%", got)
	}
	if got := b.eval(t, box+`.querySelector('.plan-now').textContent`); got != "→ T001 Greeting module 1/2 · S2 Add a unit test" {
		t.Errorf("the task under way reads %q", got)
	}
	if got := b.eval(t, box+`.querySelector('.plan-project').title`); got != project {
		t.Errorf("the plan is named for %q, want %s", got, project)
	}

	// Grouped by project, the plan heads its project's column.
	b.do(t, chromedp.Click(chromedp.CSS(`#group-by input[value="project"]`)))
	col := `document.querySelector('.column .column-plan .plan')`
	b.poll(t, "the plan heads the project's column", col+` !== null && document.getElementById('plans').hidden`)
	if got := b.eval(t, col+`.closest('.column').dataset.key`); got != project {
		t.Errorf("the plan heads the column of %q, want %s", got, project)
	}
	// The session follows the plan, so it is no session "without a list".
	if got := b.eval(t, col+`.closest('.column').querySelector('.card:not([hidden])') !== null`); got != "true" {
		t.Error("the session that writes the plan's markers is hidden as one without a list")
	}
	b.shot(t, "dashboard-blueprint-1280x800.png")

	// The rest of the session: the plan completes, live.
	dashAppend(t, log, after)
	b.poll(t, "the plan completes", col+` !== null && `+col+`.querySelector('.plan-count').textContent === '2/2 · 100%'`)
	if got := b.eval(t, col+`.querySelector('.plan-now').textContent`); got != "✓ 2/2 Complete" {
		t.Errorf("a complete plan reads %q", got)
	}
	b.wantMarker(t)
	if out := srv.tally(t, "task", "--project", project); !strings.HasPrefix(out, "Progress: 2/2 (100%)") {
		t.Errorf("tally task after the session:\n%s", out)
	}
}

// focusCapture is a real Claude Code session following a three-task plan
// (see its README.md).
const focusCapture = "../plan/testdata/claude-code-2.1.330-plan-focus"

// The Blueprint box expands to the plan's tasks: its "Tasks" button lists
// each task with its status, X/Y steps and current step (the blocked one
// saying why), and a click on a task shows its steps, with what done means
// for each and the current one marked.
func TestDashboard_blueprintExpandsToTheTaskList(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	srv := startServe(t)

	// Cut after the reply saying "progress: T002.S1 blocked: …".
	_, log, before, after := planSession(t, srv, focusCapture, "/tmp/cap21d/cc/plan-focus/work", "progress: T002.S1 blocked")

	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.url))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	dashAppend(t, log, before)

	box := `document.querySelector('#plans .plan')`
	b.poll(t, "the blocked plan shows above the board", box+` !== null && `+box+`.querySelector('.plan-now').dataset.stage === 'blocked'`)
	if got := b.eval(t, box+`.querySelector('.plan-tasks').hidden`); got != "true" {
		t.Errorf("the task list shows before it is asked for")
	}
	b.do(t, chromedp.Click(chromedp.CSS(`#plans .plan .plan-toggle`)))
	b.poll(t, "the box lists the tasks", box+`.querySelectorAll('.plan-task').length === 3`)
	rows := b.eval(t, `[...document.querySelectorAll('#plans .plan .plan-task')].map(r => r.dataset.status + ' ' + r.textContent).join('\n')`)
	want := "planned ○T001Greeting module1/2\n" +
		"blocked ⚠T002Farewell module0/2S1 blocked: waiting for a review of the wording\n" +
		"planned ○T003Document the modules0/2"
	if rows != want {
		t.Errorf("task rows:\n%s\nwant:\n%s", rows, want)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`#plans .plan .plan-task-row[data-task="T002"]`)))
	b.poll(t, "T002 opens to its steps", box+`.querySelector('.plan-steps') !== null`)
	steps := b.eval(t, box+`.querySelector('.plan-steps').textContent`)
	for _, w := range []string{"Goal: farewell(name) returns a goodbye and is tested", "⚠ S1 Write farewell.py ← current",
		`Done: farewell("World") returns "Goodbye, World!"`, "○ S2 Add a unit test"} {
		if !strings.Contains(steps, w) {
			t.Errorf("T002's steps lack %q: %s", w, steps)
		}
	}
	b.shot(t, "dashboard-blueprint-tasks-1280x800.png")

	// The rest of the session: the list stays open and follows the plan.
	dashAppend(t, log, after)
	b.poll(t, "the plan completes with its list open", box+`.querySelector('.plan-count').textContent === '3/3 · 100%' && `+
		`[...`+box+`.querySelectorAll('.plan-task')].every(r => r.dataset.status === 'complete')`)
	// The quick task the agent recorded on the way is counted under the list.
	if got := b.eval(t, box+`.querySelector('.plan-quick') && `+box+`.querySelector('.plan-quick').textContent`); got != "Quick: 1 done" {
		t.Errorf("the quick tasks under the list: %q", got)
	}
}

// planSession readies a captured Claude Code session that moves a plan
// along: the capture's project folder is copied to a new one (project),
// the session's recorded folder is rewritten to it, and the session's
// lines are split after the last assistant reply containing mark. log is
// where the session goes under srv's Claude Code folder (its folder
// made, the file not yet written).
func planSession(t *testing.T, srv *serveProc, capture, recorded, mark string) (project, log string, before, after []string) {
	t.Helper()
	project = t.TempDir()
	if err := os.CopyFS(project, os.DirFS(filepath.Join(capture, "work"))); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(capture + "/config/projects/*/*.jsonl")
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(recorded), []byte(project))
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := 0
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"assistant"`)) && bytes.Contains(l, []byte(mark)) {
			cut = i + 1
		}
	}
	log = filepath.Join(srv.claude, "projects", "-project", filepath.Base(logs[0]))
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		t.Fatal(err)
	}
	split := func(ls [][]byte) []string {
		return strings.Split(strings.TrimSuffix(string(bytes.Join(ls, nil)), "\n"), "\n")
	}
	return project, log, split(lines[:cut]), split(lines[cut:])
}
