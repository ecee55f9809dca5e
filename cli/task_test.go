package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally/planview"
)

// runIn runs tally with stdin.
func runIn(t *testing.T, stdin string, args ...string) (ExitCode, string, string) {
	t.Helper()
	var out, errOut syncBuffer
	env := testEnv(nil, &out, &errOut, nil)
	env.In = strings.NewReader(stdin)
	code := Run(context.Background(), env, args)
	return code, out.String(), errOut.String()
}

// The whole round a user sees: plan two tasks, an agent's message with
// markers applied through tally marker, and the plan showing where it is.
func TestTask_planMarkersAndViews(t *testing.T) {
	project := t.TempDir()
	code, out, errOut := runIn(t, "", "task", "--project", project)
	if code != ExitNotFound || !strings.Contains(errOut, "no plan in "+project) {
		t.Fatalf("no plan yet: %d %q %q", code, out, errOut)
	}
	code, out, errOut = runIn(t, "", "task", "new", "Login Page", "--project", project, "--goal", "Users can log in",
		"--step", "Build the form", "--done", "The form posts", "--step", "Keep the session", "--done", "A cookie is set")
	if code != ExitOK || !strings.HasPrefix(out, "Created T001 Login Page (2 steps): "+filepath.Join(project, "docs", "por", "T001-login-page", "task.yaml")) {
		t.Fatalf("task new: %d %q %q", code, out, errOut)
	}
	runIn(t, "", "task", "new", "Logout", "--project", project, "--goal", "Users can log out",
		"--step", "Add the button", "--done", "It shows", "--step", "End the session", "--done", "The cookie is gone")

	msg := "The form posts now.\n\nprogress: T001 start\nprogress: T001.S1 done\n"
	code, out, errOut = runIn(t, msg, "marker", "--project", project, "--session", "build-bot")
	if code != ExitOK || out != "applied  progress: T001 start\napplied  progress: T001.S1 done\n" {
		t.Fatalf("marker: %d %q %q", code, out, errOut)
	}
	if code, out, _ = runIn(t, msg, "marker", "--project", project, "--session", "build-bot"); code != ExitOK ||
		out != "duplicate  progress: T001 start    already judged\nduplicate  progress: T001.S1 done  already judged\n" {
		t.Fatalf("the same message again: %d %q", code, out)
	}
	code, out, errOut = runIn(t, "progress: T001.S1 done\nprogress: T007 start", "marker", "--project", project)
	if code != ExitConflict || !strings.Contains(out, "rejected  progress: T001.S1 done  T001.S1 is already complete") ||
		!strings.Contains(errOut, "2 of 2 markers rejected") {
		t.Fatalf("rejected markers: %d %q %q", code, out, errOut)
	}

	code, out, _ = runIn(t, "", "task", "--project", project)
	want := "Progress: 0/2 (0%)\n░░░░░░░░░░░░░░░░░░░░\nScope: 2 tasks (no changes)\n\n" +
		"→ T001  Login Page  1/2  S2: Keep the session\n○ T002  Logout      0/2\n"
	if code != ExitOK || out != want {
		t.Fatalf("task:\n%s\nwant:\n%s", out, want)
	}
	code, out, _ = runIn(t, "", "task", "T001", "--project", project)
	if code != ExitOK || !strings.Contains(out, "→ S2  Keep the session  ← current\n      Done: A cookie is set\n") {
		t.Fatalf("task T001:\n%s", out)
	}
	code, out, _ = runIn(t, "", "task", "T001", "--json", "--project", project)
	var rep planview.TaskReport
	if err := json.Unmarshal([]byte(out), &rep); code != ExitOK || err != nil || rep.Current != "S2" || rep.Progress.Done != 1 {
		t.Fatalf("task T001 --json: %v\n%s", err, out)
	}
	if code, _, errOut = runIn(t, "", "task", "T009", "--project", project); code != ExitNotFound || !strings.Contains(errOut, "no task T009") {
		t.Fatalf("unknown task: %d %q", code, errOut)
	}
	code, out, _ = runIn(t, "", "timeline", "--project", project)
	if code != ExitOK || !strings.Contains(out, "] → T001 activated\n") || !strings.Contains(out, `✗ Rejected "progress: T007 start": no task T007 in the plan`) {
		t.Fatalf("timeline:\n%s", out)
	}
	if code, out, _ = runIn(t, "", "task", "active", "--project", project); code != ExitOK || !strings.Contains(out, "Total: 1 active") {
		t.Fatalf("active:\n%s", out)
	}
	if code, out, _ = runIn(t, "", "task", "blocked", "--json", "--project", project); code != ExitOK || strings.TrimSpace(out) != "[]" {
		t.Fatalf("blocked --json: %q", out)
	}
	// Every --json is in one style, camelCase as SessionJSON.md: no key
	// written as snake_case ("quick_tasks").
	for _, args := range [][]string{{"task"}, {"task", "T001"}, {"timeline"}, {"marker"}} {
		stdin := ""
		if args[0] == "marker" {
			stdin = "progress: T001.S2 done"
		}
		_, out, _ := runIn(t, stdin, append(args, "--json", "--project", project)...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v --json: %v\n%s", args, err, out)
		}
		for _, k := range jsonKeys(v) {
			if strings.Contains(k, "_") {
				t.Errorf("%v --json has the key %q", args, k)
			}
		}
	}
}

// jsonKeys are every object key in v, at any depth.
func jsonKeys(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			out = append(append(out, k), jsonKeys(e)...)
		}
	case []any:
		for _, e := range v {
			out = append(out, jsonKeys(e)...)
		}
	}
	return out
}

func TestTaskNew_badArguments(t *testing.T) {
	project := t.TempDir()
	code, _, errOut := runIn(t, "", "task", "new", "X", "--project", project, "--goal", "g", "--step", "a", "--done", "b", "--step", "c")
	if code != ExitUsage || !strings.Contains(errOut, "each --step needs its --done") {
		t.Fatalf("%d %q", code, errOut)
	}
	code, _, errOut = runIn(t, "", "task", "new", "X", "--project", project, "--goal", "g", "--step", "a", "--done", "b")
	if code != ExitUsage || !strings.Contains(errOut, "a task has 2 to 8 steps, not 1") {
		t.Fatalf("%d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(project, "docs", "por", "T001-x")); !os.IsNotExist(err) {
		t.Fatal("a refused task left a folder")
	}
}

func TestMarker_noMarkerIsNotAFailure(t *testing.T) {
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, "docs", "por"), 0o755)
	code, out, errOut := runIn(t, "Just prose.\n", "marker", "--project", project)
	if code != ExitOK || out != "" || !strings.Contains(errOut, "no progress marker") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	if code, _, errOut = runIn(t, "progress: T001 start", "marker", "--project", t.TempDir()); code != ExitNotFound || !strings.Contains(errOut, "no plan in") {
		t.Fatalf("no plan folder: %d %q", code, errOut)
	}
}

// The forms the issue found given "no progress marker": in backticks,
// after a list bullet, the keyword capitalised are markers; a line meant
// as one that is not is said to be unrecognised, and why, not ignored.
func TestMarker_markupAroundAMarkerIsReadAndANearMissIsSaid(t *testing.T) {
	project := t.TempDir()
	runIn(t, "", "task", "new", "Login", "--project", project, "--goal", "Users can log in",
		"--step", "Add the form", "--done", "It posts", "--step", "Keep the session", "--done", "A cookie is set",
		"--step", "Log out", "--done", "The cookie is gone")
	code, out, errOut := runIn(t, "`progress: T001 start`\n- progress: T001.S1 done\nProgress: T001.S2 done\n", "marker", "--project", project)
	if code != ExitOK || out != "applied  progress: T001 start\napplied  progress: T001.S1 done\napplied  progress: T001.S2 done\n" {
		t.Fatalf("marker: %d %q %q", code, out, errOut)
	}
	code, out, errOut = runIn(t, "progress: T001.S3 finished\n", "marker", "--project", project)
	if code != ExitConflict || !strings.Contains(out, `rejected  progress: T001.S3 finished  not a progress marker: "finished" is not an action`) {
		t.Fatalf("a near miss: %d %q %q", code, out, errOut)
	}
	if code, out, _ = runIn(t, "", "timeline", "--project", project); code != ExitOK || !strings.Contains(out, `? Unrecognised "progress: T001.S3 finished"`) {
		t.Fatalf("timeline:\n%s", out)
	}
}

// A quick task is recorded from its marker and shown where seed 04 shows
// it: the plan's scope line ("Quick: 1 done") and the timeline.
func TestMarker_aQuickTaskIsRecordedAndShown(t *testing.T) {
	project := t.TempDir()
	runIn(t, "", "task", "new", "Login", "--project", project, "--goal", "Users can log in",
		"--step", "Add the form", "--done", "It posts", "--step", "Keep the session", "--done", "A cookie is set")
	code, out, errOut := runIn(t, "Fixed it.\n\nprogress: quick done: Fix typo in README\n", "marker", "--project", project, "--session", "s1")
	if code != ExitOK || out != "applied  progress: quick done: Fix typo in README\n" {
		t.Fatalf("marker: %d %q %q", code, out, errOut)
	}
	if code, out, _ = runIn(t, "", "task", "--project", project); code != ExitOK || !strings.Contains(out, "Scope: 1 task (no changes) │ Quick: 1 done\n") {
		t.Fatalf("task:\n%s", out)
	}
	if code, out, _ = runIn(t, "", "timeline", "--project", project); code != ExitOK || !strings.Contains(out, `⚡ Quick task: "Fix typo in README"`) {
		t.Fatalf("timeline:\n%s", out)
	}
}

// tally task and tally tasks are different things; each one's help says
// which is which.
func TestTask_helpTellsTaskFromTasks(t *testing.T) {
	_, out, _ := runIn(t, "", "task", "--help")
	if !strings.Contains(out, "This is not 'tally tasks', which shows the task lists agents keep\nthrough tally mcp.") {
		t.Fatalf("task help:\n%s", out)
	}
	_, out, _ = runIn(t, "", "tasks", "--help")
	if !strings.Contains(out, "This is not\n'tally task', which shows a project's plan") {
		t.Fatalf("tasks help:\n%s", out)
	}
	_, out, _ = runIn(t, "", "--help")
	if !strings.Contains(out, "task        Show the project's plan") || !strings.Contains(out, "(a project's plan is 'tally task')") {
		t.Fatalf("root help:\n%s", out)
	}
}

func TestGitRoot(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	os.MkdirAll(deep, 0o755)
	if got := gitRoot(deep); got != deep {
		t.Fatalf("no .git: %s", got)
	}
	os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: elsewhere\n"), 0o644) // a worktree's .git file
	if got := gitRoot(deep); got != root {
		t.Fatalf("with .git: %s, want %s", got, root)
	}
}
