package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// requireTmux skips when tmux is missing, unless CI or TALLY_REQUIRE_TMUX
// says the test must run.
func requireTmux(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err == nil {
		return path
	}
	msg := "tmux is missing: run scripts/deps-tmux (apt-get install tmux)"
	if os.Getenv("CI") != "" || os.Getenv("TALLY_REQUIRE_TMUX") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + "; set TALLY_REQUIRE_TMUX=1 to make this a failure")
	return ""
}

// terminal is a tmux server of the test's own, with one 100×30 window.
type terminal struct {
	t      *testing.T
	tmux   string
	socket string
}

func newTerminal(t *testing.T, dir string, env []string, command ...string) *terminal {
	tm := &terminal{t: t, tmux: requireTmux(t), socket: filepath.Join(dir, "tmux.sock")}
	args := []string{"new-session", "-d", "-x", "100", "-y", "30", "-c", dir, "--"}
	args = append(args, "env", "-i")
	args = append(args, env...)
	args = append(args, command...)
	tm.run(args...)
	tm.run("set-option", "-g", "remain-on-exit", "on")
	t.Cleanup(func() { exec.Command(tm.tmux, "-S", tm.socket, "kill-server").Run() })
	return tm
}

func (tm *terminal) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command(tm.tmux, append([]string{"-S", tm.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends keys one at a time, waiting between them: Esc followed at
// once by another key would read as Alt and that key.
func (tm *terminal) keys(keys ...string) {
	for _, k := range keys {
		tm.run("send-keys", "-t", "0", k)
		time.Sleep(150 * time.Millisecond)
	}
}

func (tm *terminal) screen() string {
	return tm.run("capture-pane", "-p", "-t", "0")
}

// waitFor waits until the screen holds every one of want and returns it.
func (tm *terminal) waitFor(want ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := tm.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// snapshot keeps a screen in testdata for people to read (not compared:
// ages and the spinner move).
func snapshot(t *testing.T, name, screen string) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(screen, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	text := strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
	if os.Getenv("TALLY_UPDATE_SCREENS") != "" {
		if err := os.WriteFile(filepath.Join("testdata", "screens", name+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const todowriteSession = "bfd476f6-2564-4246-aaa4-e4c25c7ee9b5"

// tuiScenarios are the Claude Code captures the terminal tests read: eight
// sessions (tasks-shared holds two). Named, not globbed, so a capture added
// for another test does not change what these screens show.
var tuiScenarios = []string{"default-model-no-todo-tools", "tasks", "tasks-partial", "tasks-shared",
	"tasks-subagent", "todowrite", "todowrite-subagent"}

// claudeHomeOf makes claude a Claude Code home holding the projects of the
// named captured scenarios.
func claudeHomeOf(t *testing.T, claude string, scenarios ...string) {
	t.Helper()
	for _, sc := range scenarios {
		projects, _ := filepath.Glob(filepath.Join(fixtures+"captured/claude-code-2.1.330", sc, "config", "projects", "*"))
		if len(projects) == 0 {
			t.Fatalf("capture %s holds no project", sc)
		}
		for _, p := range projects {
			copyTree(t, p, filepath.Join(claude, "projects", filepath.Base(p)))
		}
	}
}

// TestTUI_inATerminal is issue 12's "done when": tally on a terminal shows
// every session of a home of real captures; / filters as you type, Enter
// keeps the filter, T expands the panel, Esc collapses it, a line the agent
// appends shows without a key press, q quits with status 0.
func TestTUI_inATerminal(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude")
	claudeHomeOf(t, claude, tuiScenarios...)
	env := testhome.Environ(dir, "TERM=xterm-256color", "PATH=/usr/bin:/bin", "NO_COLOR=1")
	tm := newTerminal(t, dir, env, tallyBin, "--db", filepath.Join(dir, "tally.db"), "--claude-dir", claude)

	s := tm.waitFor("tally ·", "8 sessions", "Create greet.py")
	snapshot(t, "list", s)

	tm.keys("/")
	for _, r := range "todowrite/work" {
		tm.keys(string(r))
	}
	s = tm.waitFor("1 shown", "“todowrite/work”", "/todowrite/work▏")
	snapshot(t, "filter", s)
	tm.keys("Enter")
	s = tm.waitFor("✓ 3/3 Complete", "[T]", "/ filter · a agent")
	snapshot(t, "filtered_collapsed", s)

	tm.keys("T")
	s = tm.waitFor("Tasks 3/3 · 100%", "✓ All 3 tasks complete")
	snapshot(t, "expanded_complete", s)

	// The agent starts over on its list: a TodoWrite appended to its log,
	// now, reaches the screen with no key pressed.
	appendTodoWrite(t, filepath.Join(claude, "projects", "-tmp-capture-cc-todowrite-work", todowriteSession+".jsonl"))
	s = tm.waitFor("Tasks 0/3 · 0%", "Tallying the greeting module", "working")
	snapshot(t, "expanded_live", s)

	tm.keys("Escape")
	s = tm.waitFor("0/3 ◼ Tallying the greeting module")
	if strings.Contains(s, "Tasks 0/3") {
		t.Errorf("Esc did not collapse the panel:\n%s", s)
	}
	snapshot(t, "collapsed_live", s)

	tm.keys("Enter")
	s = tm.waitFor("id "+todowriteSession, "esc back")
	snapshot(t, "detail", s)

	tm.keys("q")
	if state := tm.exitState(); state[1] != "status=0" {
		t.Fatalf("q did not exit 0: %q\n%s", state, tm.screen())
	}
}

// exitState waits for the pane's program to end and says how: the pane
// stays (remain-on-exit) with "dead=1 status=N signal=" or the signal that
// ended it.
//
// tmux learns the status from SIGCHLD, and can miss one (it does when it
// starts with SIGCHLD blocked, as under a shell's job control): the pane
// is dead, its program a zombie, and the status never comes. Another
// SIGCHLD makes tmux reap it.
func (tm *terminal) exitState() []string {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	nudged := time.Time{}
	for {
		state := strings.Fields(tm.run("display-message", "-p", "-t", "0", "dead=#{pane_dead} status=#{pane_dead_status} signal=#{pane_dead_signal}"))
		reaped := len(state) == 3 && state[0] == "dead=1" && (state[1] != "status=" || state[2] != "signal=")
		switch {
		case reaped:
			return state
		case time.Now().After(deadline):
			tm.t.Fatalf("still running 20 s after q: %q\n%s", state, tm.screen())
		case len(state) > 0 && state[0] == "dead=1" && time.Since(nudged) > time.Second:
			if pid, err := strconv.Atoi(strings.TrimSpace(tm.run("display-message", "-p", "#{pid}"))); err == nil {
				syscall.Kill(pid, syscall.SIGCHLD)
			}
			nudged = time.Now()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// appendTodoWrite appends the capture's first TodoWrite call again, as a
// new call made now, its first step's activeForm renamed.
func appendTodoWrite(t *testing.T, path string) {
	t.Helper()
	line := todoWriteLine(t, path)
	line = bytes.Replace(line, []byte("Writing greeting module"), []byte("Tallying the greeting module"), 1)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
}

// todoWriteLine is the first TodoWrite call of the capture at path, as a
// new call made now.
func todoWriteLine(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var line []byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(`"name":"TodoWrite","input"`)) {
			line = l
			break
		}
	}
	if line == nil {
		t.Fatal("no TodoWrite call in the capture")
	}
	now := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	line = bytes.Replace(line, []byte("toolu_01HsIaAGanfAekozplpHlEE8"), []byte("toolu_e2e"+strconv.FormatInt(time.Now().UnixNano(), 36)), 1)
	return bytes.Replace(line, []byte(`"timestamp":"2026-11-22T14:06:29.982Z"`), []byte(`"timestamp":"`+now+`"`), 1)
}
