package cli

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"strconv"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/store"
)

// hostilePlan is a plan folder a cloned repository (or an agent) shaped
// to make Tally read or write what it must not. make shapes project's
// docs/por, given a folder outside the project it may link to; it returns
// the settings file to use ("" for none), or skips the test where the
// machine cannot make the case.
type hostilePlan struct {
	name string
	make func(t *testing.T, project, outside string) (settings string)
	// says is what a command that would write says of it ("" is
	// refusedWords).
	says string
	// task: only task T001 is hostile, not the plan; what names T001 is
	// rejected, saying why (in the ledger), and the rest of the plan
	// works.
	task bool
	// folder: the plan folder itself is refused, not a file in it: no
	// agent is asked to keep a plan there.
	folder bool
}

// refusedWords end the message of every plan file Tally refuses.
const refusedWords = "Tally does not read or write it"

const por = "docs/por"

// hostilePlans are the cases: links (out of the project, and to another
// file of the plan), FIFOs, a device, a file of another user, a folder
// other users can write to, and folders that resolve outside the project.
var hostilePlans = []hostilePlan{
	{name: "ledger links outside", make: func(t *testing.T, project, outside string) string {
		link(t, filepath.Join(outside, "victim"), filepath.Join(project, por, plan.LedgerFile))
		return ""
	}},
	{name: "ledger links to a task file", make: func(t *testing.T, project, _ string) string {
		link(t, filepath.Join(project, por, "T001-greeting-module", plan.TaskFile), filepath.Join(project, por, plan.LedgerFile))
		return ""
	}},
	{name: "ledger is a hard link", make: func(t *testing.T, project, outside string) string {
		path := filepath.Join(project, por, plan.LedgerFile)
		os.Remove(path)
		if err := os.Link(filepath.Join(outside, "victim"), path); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
		return ""
	}},
	{name: "ledger is a FIFO", make: func(t *testing.T, project, _ string) string {
		fifo(t, filepath.Join(project, por, plan.LedgerFile))
		return ""
	}},
	{name: "ledger is a device", make: func(t *testing.T, project, _ string) string {
		path := filepath.Join(project, por, plan.LedgerFile)
		os.Remove(path)
		if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil { // /dev/null's numbers
			t.Skipf("cannot make a device here: %v", err)
		}
		return ""
	}},
	{name: "ledger belongs to another user", make: func(t *testing.T, project, _ string) string {
		path := filepath.Join(project, por, plan.LedgerFile)
		if err := os.WriteFile(path, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		otherOwner(t, path)
		return ""
	}},
	{name: "scope.yaml links outside", make: func(t *testing.T, project, outside string) string {
		link(t, filepath.Join(outside, "victim"), filepath.Join(project, por, plan.ScopeFile))
		return ""
	}},
	{name: "scope.yaml is a FIFO", make: func(t *testing.T, project, _ string) string {
		fifo(t, filepath.Join(project, por, plan.ScopeFile))
		return ""
	}},
	{name: "task.yaml links outside", make: func(t *testing.T, project, outside string) string {
		task := filepath.Join(project, por, "T001-greeting-module", plan.TaskFile)
		if err := os.Rename(task, filepath.Join(outside, "victim.yaml")); err != nil {
			t.Fatal(err)
		}
		link(t, filepath.Join(outside, "victim.yaml"), task)
		return ""
	}, task: true},
	{name: "task.yaml is a FIFO", make: func(t *testing.T, project, _ string) string {
		fifo(t, filepath.Join(project, por, "T001-greeting-module", plan.TaskFile))
		return ""
	}, task: true},
	{name: "task folder links outside", make: func(t *testing.T, project, outside string) string {
		dir := filepath.Join(project, por, "T001-greeting-module")
		if err := os.Rename(dir, filepath.Join(outside, "T001")); err != nil {
			t.Fatal(err)
		}
		link(t, filepath.Join(outside, "T001"), dir)
		return ""
	}, task: true},
	{name: "plan folder links outside", make: func(t *testing.T, project, outside string) string {
		dir := filepath.Join(project, por)
		if err := os.Rename(dir, filepath.Join(outside, "por")); err != nil {
			t.Fatal(err)
		}
		link(t, filepath.Join(outside, "por"), dir)
		return ""
	}, folder: true},
	{name: "docs links outside", make: func(t *testing.T, project, outside string) string {
		dir := filepath.Join(project, "docs")
		if err := os.Rename(dir, filepath.Join(outside, "docs")); err != nil {
			t.Fatal(err)
		}
		link(t, filepath.Join(outside, "docs"), dir)
		return ""
	}, folder: true},
	{name: "plan folder other users can write to", make: func(t *testing.T, project, _ string) string {
		if err := os.Chmod(filepath.Join(project, por), 0o777); err != nil {
			t.Fatal(err)
		}
		return ""
	}, folder: true},
	{name: "plan folder of another user", make: func(t *testing.T, project, _ string) string {
		otherOwner(t, filepath.Join(project, por))
		return ""
	}, folder: true},
	{name: "settings put the plan folder outside the project", make: func(t *testing.T, project, outside string) string {
		copyTree(t, filepath.Join(outside, "por"), filepath.Join(project, por))
		rel, _ := filepath.Rel(project, filepath.Join(outside, "por"))
		settings := filepath.Join(t.TempDir(), "config.toml")
		text := "[[plans.project]]\npath = " + strconv.Quote(project) + "\nfolder = " + strconv.Quote(filepath.ToSlash(rel)) + "\n"
		if err := os.WriteFile(settings, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return settings
	}, says: "want a folder inside the project", folder: true},
}

func link(t *testing.T, target, name string) {
	t.Helper()
	os.Remove(name)
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func fifo(t *testing.T, path string) {
	t.Helper()
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

func otherOwner(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	if err := os.Lchown(path, 65534, 65534); err != nil {
		t.Skipf("chown: %v", err)
	}
}

// snapshot is every file under dir with a digest of its content and its
// mode: what must not change.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		data, _ := os.ReadFile(path)
		sum := sha256.Sum256(data)
		out[path] = fi.Mode().String() + string(sum[:])
		return nil
	})
	return out
}

// planCommand is a command that touches plans, and what it is given.
type planCommand struct {
	name  string
	stdin string
	args  func(project string) []string
	// writes: the command writes the plan, so a refusal must be said.
	writes bool
	// scanned: the command runs on a store scan filled.
	scanned bool
}

var planCommands = []planCommand{
	{name: "task", args: func(p string) []string { return []string{"task", "--project", p} }},
	{name: "task T001", args: func(p string) []string { return []string{"task", "T001", "--project", p} }},
	{name: "task blocked --json", args: func(p string) []string { return []string{"task", "blocked", "--json", "--project", p} }},
	{name: "timeline", args: func(p string) []string { return []string{"timeline", "--project", p} }},
	{name: "task new", writes: true, args: func(p string) []string {
		return []string{"task", "new", "A", "--project", p, "--goal", "g", "--step", "one", "--done", "c1", "--step", "two", "--done", "c2"}
	}},
	{name: "marker", writes: true, stdin: "progress: T001.S1 blocked: $(touch ../PWNED)\nprogress: T001 start\n",
		args: func(p string) []string { return []string{"marker", "--project", p, "--session", "s1"} }},
	// scan applies the markers of the session log planHome wrote, as
	// watch, serve and the overview do (one planner).
	{name: "scan", writes: true, args: func(string) []string { return []string{"scan"} }},
	// sessions and show read the plan line of each session's project.
	// A session starting in the project is told the plan protocol by its
	// SessionStart hook when the project keeps a plan Tally can move.
	{name: "hook SessionStart", stdin: "hook", args: func(p string) []string { return []string{"hook", "claude"} }},
	// The board, watch and the terminal UI show plans through the
	// planner (planner.ViewFor), with its cache.
	{name: "board", scanned: true},
	{name: "sessions", scanned: true, args: func(string) []string { return []string{"sessions"} }},
	{name: "show", scanned: true, args: func(string) []string { return []string{"show", planSession[:8]} }},
}

// Every command that touches plans, on every hostile plan folder: it
// ends (a FIFO never freezes it), nothing outside the project changes
// (no write through a link, however deep), and a command that would
// write says why it did not, naming what it refused.
func TestPlan_hostileFoldersThroughEveryCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links, FIFOs and owners are Unix's")
	}
	for _, h := range hostilePlans {
		for _, c := range planCommands {
			t.Run(h.name+"/"+c.name, func(t *testing.T) {
				home, project, log := planHome(t, 6)
				outside := t.TempDir()
				if err := os.WriteFile(filepath.Join(outside, "victim"), []byte("export PATH=/usr/bin\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				settings := h.make(t, project, outside)
				before := snapshot(t, outside)
				env := map[string]string{"CLAUDE_CONFIG_DIR": home, "TALLY_CONFIG": settings, "XDG_STATE_HOME": t.TempDir()}
				st := newStore(t)
				if c.scanned {
					runBounded(t, st, env, "", "scan")
				}
				var code ExitCode
				var out, errOut string
				stdin := c.stdin
				if stdin == "hook" {
					stdin = `{"session_id":"` + planSession + `","transcript_path":"` + log + `","cwd":"` + project +
						`","hook_event_name":"SessionStart","source":"compact"}`
				}
				if c.args == nil {
					out = boardView(t, st, env, project)
				} else {
					code, out, errOut = runBounded(t, st, env, stdin, c.args(project)...)
				}
				if after := snapshot(t, outside); !sameSnapshot(before, after) {
					t.Fatalf("a file outside the project changed (exit %d)\nstdout: %s\nstderr: %s", code, out, errOut)
				}
				if _, err := os.Lstat(filepath.Join(project, "..", "PWNED")); err == nil {
					t.Fatal("a marker's reason ran")
				}
				says := h.says
				if says == "" {
					says = refusedWords
				}
				if c.name == "hook SessionStart" && (code != ExitOK || h.folder && strings.Contains(out, "progress: T")) {
					t.Errorf("the hook offered the plan protocol of a folder Tally refuses, or failed: exit %d\n%s", code, out)
				}
				said := strings.Contains(out+errOut, says)
				switch {
				case h.task && c.name == "scan":
					ledger := readText(t, filepath.Join(project, por, plan.LedgerFile))
					if !strings.Contains(ledger, `"type":"marker_rejected"`) || !strings.Contains(ledger, says) {
						t.Errorf("the markers naming T001 are not rejected with the reason in the ledger:\n%s", ledger)
					}
				case h.task && c.name == "task new":
				case c.name == "scan" && !said, c.writes && c.name != "scan" && (code == ExitOK || !said):
					t.Errorf("exit %d, and no word of the refusal\nstdout: %s\nstderr: %s", code, out, errOut)
				}
			})
		}
	}
}

func sameSnapshot(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// runBounded runs tally, failing the test if it has not ended within a
// few seconds (a command frozen on a FIFO would never end).
func runBounded(t *testing.T, st store.Store, env map[string]string, stdin string, args ...string) (ExitCode, string, string) {
	t.Helper()
	var out, errOut syncBuffer
	e := testEnv(st, &out, &errOut, env)
	e.In = strings.NewReader(stdin)
	// After the capture planHome copies, so its times need no repair.
	e.Now = func() time.Time { return time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) }
	done := make(chan ExitCode, 1)
	go func() { done <- Run(context.Background(), e, args) }()
	select {
	case code := <-done:
		return code, out.String(), errOut.String()
	case <-time.After(20 * time.Second):
		t.Fatalf("tally %s did not end\nstdout: %s\nstderr: %s", strings.Join(args, " "), out.String(), errOut.String())
	}
	return 0, "", ""
}

// boardView is the plan line the board shows for project, read as serve
// reads it (the planner, with its cache), failing the test if that does
// not end within a few seconds.
func boardView(t *testing.T, st store.Store, env map[string]string, project string) string {
	t.Helper()
	var out, errOut syncBuffer
	a := &app{env: testEnv(st, &out, &errOut, env)}
	l, err := a.newLive(context.Background(), st, liveOptions{})
	if err != nil {
		return err.Error()
	}
	p := l.plans
	done := make(chan string, 1)
	go func() {
		v, ok, err := p.ViewFor(project)
		if err != nil {
			done <- tally.UserMessage(err)
			return
		}
		if !ok {
			done <- "no plan"
			return
		}
		done <- v.Line
	}()
	select {
	case line := <-done:
		return line
	case <-time.After(20 * time.Second):
		t.Fatal("the board's view of the plan did not end")
	}
	return ""
}
