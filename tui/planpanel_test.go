package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planview"
)

// focusPlan is the plan Claude Code wrote in a real session (its task
// files, ../plan/testdata/claude-code-2.1.330-plan-focus), moved along by
// the markers it wrote up to its blocked step.
func focusPlan(t *testing.T) *plan.Plan {
	t.Helper()
	src := "../plan/testdata/claude-code-2.1.330-plan-focus/work/docs/por"
	dst := filepath.Join(t.TempDir(), "docs", "por")
	des, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(src, de.Name(), plan.TaskFile))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dst, de.Name()), 0o755)
		os.WriteFile(filepath.Join(dst, de.Name(), plan.TaskFile), b, 0o644)
	}
	f := plan.Folder{Dir: dst}
	var ms []plan.Marker
	for _, m := range marker.Scan([]byte("`progress: T001 start`\n- progress: T001.S1 done\nprogress: T002 start\n" +
		"progress: T002.S1 blocked: waiting for a review of the wording")) {
		ms = append(ms, plan.Marker{Marker: m})
	}
	if _, err := f.Apply(ms); err != nil {
		t.Fatal(err)
	}
	p, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// planOf is a Headliner saying that the limiter session follows p.
type planOf struct{ p *plan.Plan }

func (h planOf) Headline(s *tally.Session) (Headline, bool) {
	if s.ID != limiter().ID {
		return Headline{}, false
	}
	done, total := h.p.Progress()
	r := planview.ReportOf(h.p)
	return Headline{State: PanelBlocked, Done: done, Total: total, Line: planview.PanelLine(h.p), Plan: r.Tasks}, true
}

func planModel(t *testing.T, p *plan.Plan, w, h int) *Model {
	t.Helper()
	m := New(context.Background(), Options{Now: func() time.Time { return fixedNow }, Home: home, Records: fleet(), Headliner: planOf{p}})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// For a session following a plan, T expands the Task Panel to the plan's
// tasks as rows — status, X/Y steps, the current step, a blocked one with
// why — not "Tasks 0/3 · 0%" and no rows; the session's own list, which it
// also keeps, is under a line of its own, not under the plan's header.
func TestPanel_aPlanExpandsToItsTasks(t *testing.T) {
	m := planModel(t, focusPlan(t), 100, 30)
	if s := look(t, m); !strings.Contains(s, "0/3 ⚠ T002 BLOCKED") {
		t.Fatalf("collapsed:\n%s", s)
	}
	press(m, "T")
	s := look(t, m)
	for _, want := range []string{
		"Blueprint 0/3 · 0%",
		"◻ T001 Greeting module  1/2",
		"▸ T002 Farewell module  0/2  S1 blocked: waiting for a review of the wording",
		"◻ T003 Document the modules  0/2",
		"Session's own list 1/4",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("expanded panel lacks %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "Session's own list") < strings.Index(s, "T003 Document") || strings.Contains(s, "Tasks 0/3") {
		t.Errorf("the session's own list is not under its own line:\n%s", s)
	}
}

// Tab chooses a task of the expanded plan and Enter shows its steps: each
// with its status and what done means, the current one marked, the
// blocked one saying why; Tab then moves from task to task, and Enter
// again closes it.
func TestPanel_enterOnAPlanTaskShowsItsSteps(t *testing.T) {
	m := planModel(t, focusPlan(t), 100, 40)
	press(m, "T", "tab", "tab", "enter")
	s := look(t, m)
	for _, want := range []string{
		"T002 Farewell module  ▸ active 0/2",
		"goal: farewell(name) returns a goodbye and is tested",
		`▸ S1 Write farewell.py  ← current`,
		`done: farewell("World") returns "Goodbye, World!"`,
		"blocked: waiting for a review of the wording",
		"◻ S2 Add a unit test",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the task's steps lack %q:\n%s", want, s)
		}
	}
	// With a task open, Tab moves to the next one open.
	press(m, "shift+tab")
	if s := look(t, m); !strings.Contains(s, "T001 Greeting module  ◻ planned 1/2") || !strings.Contains(s, "✓ S1 Write greet.py") {
		t.Errorf("shift+tab: T001's steps:\n%s", s)
	}
	press(m, "enter")
	if s := look(t, m); strings.Contains(s, "goal:") {
		t.Errorf("enter again keeps the task open:\n%s", s)
	}
}

// A click on a task row of the plan shows its steps too.
func TestPanel_clickOnAPlanTaskShowsItsSteps(t *testing.T) {
	m := planModel(t, focusPlan(t), 100, 40)
	press(m, "enter", "T")
	y := lineOf(t, look(t, m), "T003 Document the modules")
	m.Update(tea.MouseClickMsg{X: 4, Y: y, Button: tea.MouseLeft})
	if s := look(t, m); !strings.Contains(s, "goal: A reader of README.md knows how to call greet and farewell") {
		t.Errorf("after a click on T003:\n%s", s)
	}
}

// A click on a task of the expanded panel under the list opens the
// session with that task's steps.
func TestPanel_clickOnAPlanTaskUnderTheListOpensItsSteps(t *testing.T) {
	m := planModel(t, focusPlan(t), 100, 40)
	press(m, "T")
	y := lineOf(t, look(t, m), "T001 Greeting module")
	m.Update(tea.MouseClickMsg{X: 4, Y: y, Button: tea.MouseLeft})
	if s := look(t, m); !strings.Contains(s, "goal: greet(name) returns a greeting and is tested") || !strings.Contains(s, "✓ S1 Write greet.py") {
		t.Errorf("after a click on T001 under the list:\n%s", s)
	}
}

// A plan of 100+ tasks is folded: the tasks done in one line, the active
// one, the next planned ones in two columns, and how many more are
// planned.
func TestPanel_aLargePlanIsFolded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "docs", "por")
	for i := 1; i <= 120; i++ {
		status, s1, s2 := "planned", "pending", "pending"
		switch {
		case i < 51:
			status, s1, s2 = "complete", "complete", "complete"
		case i == 51:
			status, s1, s2 = "active", "complete", "in_progress"
		}
		id := fmt.Sprintf("T%03d", i)
		os.MkdirAll(filepath.Join(dir, id+"-t"), 0o755)
		os.WriteFile(filepath.Join(dir, id+"-t", plan.TaskFile), []byte(fmt.Sprintf("id: %s\nname: Task %d\ngoal: g\nstatus: %s\nsteps:\n"+
			"  - id: S1\n    name: First\n    done: one\n    status: %s\n  - id: S2\n    name: Second\n    done: two\n    status: %s\n", id, i, status, s1, s2)), 0o644)
	}
	p, err := plan.Folder{Dir: dir}.Load()
	if err != nil || len(p.Tasks) != 120 {
		t.Fatalf("%v, %d tasks", err, len(p.Tasks))
	}
	m := planModel(t, p, 100, 40)
	press(m, "T")
	s := look(t, m)
	for _, want := range []string{"✓ T001–T050 (50 complete)", "T051 Task 51  1/2", "S2 Second", "…and 63 more planned"} {
		if !strings.Contains(s, want) {
			t.Errorf("the large plan lacks %q:\n%s", want, s)
		}
	}
	if l := lineOf(t, s, "◻ T052"); !strings.Contains(strings.Split(s, "\n")[l], "◻ T055") {
		t.Errorf("planned tasks are not in two columns:\n%s", s)
	}
}
