package planview

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/plan"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// at is a time on the example plan's days, January 2024.
func at(day, hour, minute int) time.Time {
	return time.Date(2024, 1, day, hour, minute, 0, 0, time.UTC)
}

// exampleStep is a step of an example plan.
type exampleStep struct{ name, done string }

// writeExampleTask writes a planned task with the given steps.
func writeExampleTask(t *testing.T, dir, folder, name, goal string, steps ...exampleStep) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "id: %s\nname: %s\ngoal: %s\nstatus: planned\n\nsteps:\n", folder[:4], name, goal)
	for i, s := range steps {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  - id: S%d\n    name: %s\n    done: %s\n    status: pending\n", i+1, s.name, s.done)
	}
	writeTaskFile(t, dir, folder, b.String())
}

// plainSteps are k steps named "Step 1", "Step 2", ….
func plainSteps(k int) []exampleStep {
	var s []exampleStep
	for i := 1; i <= k; i++ {
		s = append(s, exampleStep{fmt.Sprintf("Step %d", i), fmt.Sprintf("Step %d checked", i)})
	}
	return s
}

// examplePlan is the example plan of the /task views — OAuth Setup, Login
// Page, Dashboard at S2, User Profile, Notifications — built the way it
// would happen:
// five task files, then an agent's markers applied at the times given,
// and three quick tasks in the ledger. T001 ran Jan 15 13:30–16:00, T002
// was activated when T001 completed and completed Jan 16 14:30, T003 was
// activated then and is at S2.
func examplePlan(t *testing.T) plan.Folder {
	t.Helper()
	f := newFolder(t)
	writeExampleTask(t, f.Dir, "T001-oauth", "OAuth Setup", "Users can sign in with Google and GitHub", plainSteps(4)...)
	writeExampleTask(t, f.Dir, "T002-login", "Login Page", "Users can log in and out", plainSteps(3)...)
	writeExampleTask(t, f.Dir, "T003-dashboard", "Dashboard", "Users can view their activity history and stats",
		exampleStep{"Design API endpoints", "API spec documented in docs/api/dashboard.md"},
		exampleStep{"Implement backend endpoints", "All endpoints return correct data, tests pass"},
		exampleStep{"Build frontend components", "Dashboard page renders with real data"},
		exampleStep{"Integration testing", "E2E tests pass for all flows"})
	writeExampleTask(t, f.Dir, "T004-profile", "User Profile", "Users can edit their profile", plainSteps(3)...)
	writeExampleTask(t, f.Dir, "T005-notifications", "Notifications", "Users get notified of activity", plainSteps(2)...)
	script := []struct {
		at   time.Time
		text string
	}{
		{at(15, 13, 30), "progress: T001 start"},
		{at(15, 14, 10), "progress: T001.S1 done"},
		{at(15, 14, 50), "progress: T001.S2 done\nprogress: T001.S3 done"},
		{at(15, 16, 0), "progress: T001.S4 done"},
		{at(16, 11, 0), "progress: T002.S1 done"},
		{at(16, 13, 20), "progress: T002.S2 done"},
		{at(16, 14, 30), "progress: T002.S3 done"},
		{at(16, 15, 40), "progress: T003.S1 done"},
	}
	for i, s := range script {
		apply(t, f, markers("7c1e2a90", int64(i*1000), s.at, s.text))
	}
	quick := `{"type":"quick_task","at":"2024-01-15T17:00:00Z","description":"Fix typo in README","by":"7c1e2a90"}
{"type":"quick_task","at":"2024-01-16T09:10:00Z","description":"Bump the lint config","by":"7c1e2a90"}
{"type":"quick_task","at":"2024-01-16T09:30:00Z","description":"Document the env vars","by":"7c1e2a90"}
`
	appendFile(t, filepath.Join(f.Dir, plan.LedgerFile), quick)
	return f
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	lf, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if _, err := lf.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// exampleNow is when the example views are looked at: T003 has run 2h 15m.
var exampleNow = at(16, 16, 45)

func exampleOptions() ViewOptions { return ViewOptions{Now: exampleNow, Location: time.UTC} }

func render(t *testing.T, fn func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestViews_examplePlan(t *testing.T) {
	p := load(t, examplePlan(t))
	o := exampleOptions()
	golden(t, "task", render(t, func(b *bytes.Buffer) error { return RenderSummary(b, p, o) }))
	golden(t, "task_T003", render(t, func(b *bytes.Buffer) error { return RenderTask(b, p, "T003", o) }))
	golden(t, "task_T001", render(t, func(b *bytes.Buffer) error { return RenderTask(b, p, "T001", o) }))
	golden(t, "task_T004", render(t, func(b *bytes.Buffer) error { return RenderTask(b, p, "T004", o) }))
	golden(t, "task_done", render(t, func(b *bytes.Buffer) error { return RenderDone(b, p, o) }))
	golden(t, "task_active", render(t, func(b *bytes.Buffer) error { return RenderActive(b, p, o) }))
	golden(t, "task_blocked_none", render(t, func(b *bytes.Buffer) error { return RenderBlocked(b, p, o) }))
	j, err := json.MarshalIndent(ReportOf(p), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "task_json", strings.ReplaceAll(string(j), p.Dir, "docs/por")+"\n")
}

func TestViews_blocked(t *testing.T) {
	f := examplePlan(t)
	apply(t, f, markers("7c1e2a90", 99000, at(16, 16, 10), "Need a key.\n\nprogress: T003.S2 blocked: waiting for API key"))
	p := load(t, f)
	o := exampleOptions()
	golden(t, "task_blocked", render(t, func(b *bytes.Buffer) error { return RenderBlocked(b, p, o) })+
		"\n"+render(t, func(b *bytes.Buffer) error { return RenderSummary(b, p, o) })+
		"\n"+render(t, func(b *bytes.Buffer) error { return RenderTask(b, p, "T003", o) }))
}

// A large project: five tasks done, one active, six planned.
// The summary folds the done ones, shows the active one and the next
// three planned, and counts the rest.
func TestViews_largePlanWithLimit(t *testing.T) {
	f := newFolder(t)
	names := []struct {
		name  string
		steps int
	}{{"OAuth", 2}, {"Login", 2}, {"Dashboard", 2}, {"Profile", 2}, {"Notifications", 2},
		{"Payment Integration", 4}, {"Email Service", 3}, {"Admin Panel", 5}, {"API Rate Limiting", 3},
		{"Analytics", 4}, {"Export", 2}, {"Backup", 3}}
	for i, n := range names {
		writeExampleTask(t, f.Dir, fmt.Sprintf("T%03d-%s", i+1, plan.Slug(n.name)), n.name, n.name+" works", plainSteps(n.steps)...)
	}
	var text strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&text, "progress: T%03d.S1 done\nprogress: T%03d.S2 done\n", i, i)
	}
	text.WriteString("progress: T006.S1 done\nprogress: T006.S2 done\n")
	apply(t, f, markers("s", 0, at(16, 9, 0), text.String()))
	p := load(t, f)
	o := exampleOptions()
	o.Limit = DefaultLimit
	golden(t, "task_limit", render(t, func(b *bytes.Buffer) error { return RenderSummary(b, p, o) }))
}

// The timeline of a day's work, from an agent's markers and the plan's
// files as they changed, with a blocked step, a rejected marker and a
// scope change on the way.
func TestTimeline_aDaysWork(t *testing.T) {
	f := newFolder(t)
	writeExampleTask(t, f.Dir, "T001-oauth", "OAuth Setup", "g", plainSteps(4)...)
	for i, name := range []string{"login", "dashboard", "profile", "notifications"} {
		writeExampleTask(t, f.Dir, fmt.Sprintf("T%03d-%s", i+2, name), name, "g", plainSteps(2)...)
	}
	clock := at(16, 10, 5)
	f.Now = func() time.Time { return clock }
	if _, err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	step := func(h, m int, text string) {
		clock = at(16, h, m)
		apply(t, f, markers("s", int64(h*100+m), clock, text))
	}
	step(10, 5, "progress: T001 start")
	step(10, 45, "progress: T001.S1 done")
	step(11, 0, "progress: T001.S2 done")
	step(11, 10, "progress: T001.S3 blocked: waiting for API key")
	step(11, 20, "progress: T001.S3 done")
	step(11, 30, "progress: T001.S4 done")
	appendFile(t, filepath.Join(f.Dir, plan.LedgerFile), `{"type":"quick_task","at":"2024-01-16T14:00:00Z","description":"Fix typo in README"}`+"\n")
	step(15, 0, "progress: T002.S1 done\nprogress: T002.S2 done\nprogress: T009 start")
	clock = at(16, 16, 0)
	writeExampleTask(t, f.Dir, "T006-mfa", "MFA", "g", plainSteps(2)...)
	if _, err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	for _, id := range []string{"T003", "T004", "T005", "T006"} {
		fmt.Fprintf(&rest, "progress: %s.S1 done\nprogress: %s.S2 done\n", id, id)
	}
	step(18, 30, rest.String())
	p := load(t, f)
	golden(t, "timeline", render(t, func(b *bytes.Buffer) error { return RenderTimeline(b, entries(p), exampleOptions()) }))
}

func TestTimeline_spanningDaysHasDateLines(t *testing.T) {
	p := load(t, examplePlan(t))
	out := render(t, func(b *bytes.Buffer) error { return RenderTimeline(b, entries(p), exampleOptions()) })
	if !strings.HasPrefix(out, "Mon Jan 15, 2024\n[13:30] ≡ Plan created: 5 tasks\n") || !strings.Contains(out, "\n\nTue Jan 16, 2024\n") {
		t.Fatalf("timeline:\n%s", out)
	}
}

// activeTasks is a plan whose files say two tasks are active, as an agent
// (or a person) may write them.
func activeTasks(t *testing.T) plan.Folder {
	t.Helper()
	f := newFolder(t)
	for _, id := range []string{"T001", "T002"} {
		writeTaskFile(t, f.Dir, id+"-x", "id: "+id+"\nname: "+id+" work\ngoal: done\nstatus: active\nsteps:\n"+
			"  - id: S1\n    name: One\n    done: one\n    status: in_progress\n  - id: S2\n    name: Two\n    done: two\n    status: pending\n")
	}
	return f
}

// The collapsed Task Panel line in each situation a plan can be in.
func TestPanelLine(t *testing.T) {
	tests := []struct {
		name, want string
		setup      func(t *testing.T) plan.Folder
	}{
		{"no tasks", "No tasks", func(t *testing.T) plan.Folder { return newFolder(t) }},
		{"planning: tasks written, none started", "Planning…", func(t *testing.T) plan.Folder { return newFolder(t, "T001-a:2", "T002-b:2") }},
		{"execution", "2/5 → T003 [S2]", func(t *testing.T) plan.Folder { return examplePlan(t) }},
		{"blocked", "2/5 ⚠ T003 BLOCKED", func(t *testing.T) plan.Folder {
			f := examplePlan(t)
			apply(t, f, markers("s", 0, at(16, 16, 10), "progress: T003.S2 blocked: waiting"))
			return f
		}},
		{"all complete", "✓ 2/2 Complete", func(t *testing.T) plan.Folder {
			f := newFolder(t, "T001-a:2", "T002-b:2")
			apply(t, f, markers("s", 0, t0, "progress: T001.S1 done\nprogress: T001.S2 done\nprogress: T002.S1 done\nprogress: T002.S2 done"))
			return f
		}},
		{"a second task started pauses the first", "0/2 → T002 [S1]", func(t *testing.T) plan.Folder {
			f := newFolder(t, "T001-a:2", "T002-b:2")
			apply(t, f, markers("s", 0, t0, "progress: T001 start\nprogress: T002 start"))
			return f
		}},
		{"two active tasks in the files", "0/2 → T001 [S1] +1", func(t *testing.T) plan.Folder {
			return activeTasks(t)
		}},
		{"two active tasks in the files, the second blocked", "0/2 ⚠ T002 BLOCKED +1", func(t *testing.T) plan.Folder {
			f := activeTasks(t)
			apply(t, f, markers("s", 0, t0, "progress: T002.S1 blocked: waiting for review"))
			return f
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PanelLine(load(t, tt.setup(t))); got != tt.want {
				t.Fatalf("PanelLine = %q, want %q", got, tt.want)
			}
		})
	}
	if got := PanelLine(nil); got != "No tasks" {
		t.Fatalf("no plan folder: %q", got)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "<1m", 45 * time.Minute: "45m", 135 * time.Minute: "2h 15m", 76 * time.Hour: "3d 4h",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// Where the plan stands, as the SessionStart hook gives it to an agent
// whose context starts or was compacted: the active task and its next
// step ("T003 S2 next"), a blocked step with its reason, the next task
// when none is active, or that every task is complete.
func TestStanding_namesTheActiveTaskAndItsNextStep(t *testing.T) {
	tests := []struct {
		name, want string
		setup      func(t *testing.T) plan.Folder
	}{
		{"no tasks", "", func(t *testing.T) plan.Folder { return newFolder(t) }},
		{"planning: none started", `Where the plan stands: T001 next, not started (task "a"); 0 of 2 tasks complete.`,
			func(t *testing.T) plan.Folder { return newFolder(t, "T001-a:2", "T002-b:2") }},
		{"execution", `Where the plan stands: T003 S2 next (task "Dashboard", step "Implement backend endpoints"); 2 of 5 tasks complete.`,
			func(t *testing.T) plan.Folder { return examplePlan(t) }},
		{"blocked", `Where the plan stands: T003 S2 blocked: waiting on the API keys (task "Dashboard"); 2 of 5 tasks complete.`, func(t *testing.T) plan.Folder {
			f := examplePlan(t)
			apply(t, f, markers("s", 0, at(16, 16, 10), "progress: T003.S2 blocked: waiting on the API keys"))
			return f
		}},
		{"all complete", "Where the plan stands: every task is complete (2 of 2).", func(t *testing.T) plan.Folder {
			f := newFolder(t, "T001-a:2", "T002-b:2")
			apply(t, f, markers("s", 0, t0, "progress: T001.S1 done\nprogress: T001.S2 done\nprogress: T002.S1 done\nprogress: T002.S2 done"))
			return f
		}},
		{"a second task started pauses the first", `Where the plan stands: T002 S1 next (task "b", step "Step 1 of b"); 0 of 2 tasks complete.`, func(t *testing.T) plan.Folder {
			f := newFolder(t, "T001-a:2", "T002-b:2")
			apply(t, f, markers("s", 0, t0, "progress: T001 start\nprogress: T002 start"))
			return f
		}},
		{"two active tasks in the files", `Where the plan stands: T001 S1 next (task "T001 work", step "One"), also active: T002; 0 of 2 tasks complete.`,
			func(t *testing.T) plan.Folder { return activeTasks(t) }},
		{"two active tasks in the files, the second blocked", `Where the plan stands: T002 S1 blocked: waiting for review (task "T002 work"), also active: T001; 0 of 2 tasks complete.`,
			func(t *testing.T) plan.Folder {
				f := activeTasks(t)
				apply(t, f, markers("s", 0, t0, "progress: T002.S1 blocked: waiting for review"))
				return f
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Standing(load(t, tt.setup(t))); got != tt.want {
				t.Fatalf("Standing = %q\nwant        %q", got, tt.want)
			}
		})
	}
	if got := Standing(nil); got != "" {
		t.Fatalf("no plan folder: %q", got)
	}
}

// A line meant as a marker that is not one shows on the timeline as
// unrecognised, with the line and why: the user sees why the plan did not
// move.
func TestTimeline_anUnrecognisedMarkerShowsItsLineAndWhy(t *testing.T) {
	f := newFolder(t)
	writeExampleTask(t, f.Dir, "T001-oauth", "OAuth Setup", "g", plainSteps(2)...)
	clock := at(16, 10, 5)
	f.Now = func() time.Time { return clock }
	apply(t, f, markers("s", 1, clock, "Nearly there.\n\nProgress: T001.S2 finished"))
	out := render(t, func(b *bytes.Buffer) error { return RenderTimeline(b, entries(load(t, f)), exampleOptions()) })
	want := `[10:05] ? Unrecognised "Progress: T001.S2 finished": not a progress marker: "finished" is not an action`
	if !strings.Contains(out, want) {
		t.Fatalf("timeline:\n%s\nwant a line %s", out, want)
	}
}
