package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// captureTime is a minute after the todowrite capture ended, so that its
// session is still active.
var captureTime = time.Date(2026, 11, 22, 14, 7, 0, 0, time.UTC)

const todowriteSession = "bfd476f6-2564-4246-aaa4-e4c25c7ee9b5"

// following is a tally command running live on an empty Claude home.
type following struct {
	t           *testing.T
	proj        string
	out, errOut *syncBuffer
	cancel      context.CancelFunc
	done        chan ExitCode
}

// startFollowing starts `tally args…` on an empty Claude home and waits
// until it follows live.
func startFollowing(t *testing.T, args ...string) *following {
	t.Helper()
	return startFollowingIn(t, t.TempDir(), nil, args...)
}

// startFollowingIn starts `tally args…` on the Claude home given, with
// the environment variables vars, and waits until it follows live.
func startFollowingIn(t *testing.T, home string, vars map[string]string, args ...string) *following {
	t.Helper()
	f := &following{t: t, proj: filepath.Join(home, "projects", "-tmp-capture-cc-todowrite-work"),
		out: &syncBuffer{}, errOut: &syncBuffer{}, done: make(chan ExitCode, 1)}
	if err := os.MkdirAll(f.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"CLAUDE_CONFIG_DIR": home}
	for k, v := range vars {
		all[k] = v
	}
	env := testEnv(newStore(t), f.out, f.errOut, all)
	env.Now = func() time.Time { return captureTime }
	a := &app{env: env, rescan: 200 * time.Millisecond, following: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel = cancel
	t.Cleanup(cancel)
	go func() { f.done <- a.run(ctx, args) }()
	select {
	case <-a.following:
	case code := <-f.done:
		t.Fatalf("exit %d before following: %s", code, f.errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("never started following")
	}
	return f
}

// todowriteLines are the lines of the todowrite capture's transcript.
func todowriteLines(t *testing.T) [][]byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(captured, "todowrite/config/projects/-tmp-capture-cc-todowrite-work", todowriteSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(src, []byte("\n"))
}

// write adds lines to the session's transcript: the first call renames the
// file into place (as an agent's file appears whole to a reader), later
// calls append, as the agent does.
func (f *following) write(lines [][]byte) {
	f.t.Helper()
	path := filepath.Join(f.proj, todowriteSession+".jsonl")
	data := bytes.Join(lines, nil)
	if _, err := os.Stat(path); err == nil {
		af, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			f.t.Fatal(err)
		}
		defer af.Close()
		if _, err := af.Write(data); err != nil {
			f.t.Fatal(err)
		}
		return
	}
	tmp := filepath.Join(filepath.Dir(f.proj), "incoming")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		f.t.Fatal(err)
	}
}

// wait returns the output once until(out) holds.
func (f *following) wait(until func(out string) bool) string {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !until(f.out.String()) {
		if time.Now().After(deadline) {
			f.t.Fatalf("no change seen; stdout:\n%s\nstderr:\n%s", f.out.String(), f.errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return f.out.String()
}

// stop presses Ctrl-C and returns the exit code.
func (f *following) stop() ExitCode {
	f.t.Helper()
	f.cancel()
	select {
	case code := <-f.done:
		return code
	case <-time.After(10 * time.Second):
		f.t.Fatal("did not stop after Ctrl-C")
	}
	return 0
}

// runLive starts `tally args…` on an empty Claude home, waits until it
// follows live, then drops the todowrite capture in whole. It returns the
// output once until(out) holds, and the exit code after Ctrl-C.
func runLive(t *testing.T, until func(out string) bool, args ...string) (string, ExitCode) {
	t.Helper()
	f := startFollowing(t, args...)
	f.write(todowriteLines(t))
	got := f.wait(until)
	return got, f.stop()
}

func TestRun_watchJSON(t *testing.T) {
	// The capture's last TodoWrite marks all three items completed
	// (captured/README.md, scenario todowrite, turn 7).
	allDone := func(out string) bool { return strings.Contains(out, `"done":3,"total":3`) }
	out, code := runLive(t, allDone, "watch", "--json")
	if code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			Type    string
			Session tally.Session
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not one JSON object per line: %v\n%s", err, line)
		}
		if ev.Type != "session_updated" || ev.Session.ID != todowriteSession || ev.Session.Agent != claude.Agent {
			t.Errorf("change = %s %s %s", ev.Type, ev.Session.Agent, ev.Session.ID)
		}
	}
}

func TestRun_watchLines(t *testing.T) {
	out, code := runLive(t, func(out string) bool { return strings.Contains(out, "3/3") }, "watch")
	if code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}
	if !strings.HasPrefix(out, "14:07:00 "+todowriteSession[:8]+" claude …/todowrite/work Create greet.py") {
		t.Errorf("watch line = %q", out)
	}
}

func TestRun_overviewPlain(t *testing.T) {
	out, code := runLive(t, func(out string) bool { return strings.Contains(out, todowriteSession) }, "--db", "x")
	if code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}
	// Not a terminal: each version of the list after the last, separated
	// by a blank line, with no cursor movement. The first, on an empty
	// home, says where it looked.
	first, _, _ := strings.Cut(out, "\n\n")
	if !strings.HasPrefix(first, "No sessions yet. Tally looked for agents' logs in:\n  claude ") || strings.Contains(out, "\x1b") {
		t.Errorf("overview output:\n%q", out)
	}
}

// TestRun_overviewShowsRecentWhenNoneIsActive: right after a scan of old
// history nothing is active; the first screen lists the latest sessions
// and says how to see more, instead of a bare "No active sessions."
func TestRun_overviewShowsRecentWhenNoneIsActive(t *testing.T) {
	st := newStore(t)
	var recs []tally.Record
	for i := range 7 {
		r := exampleRecord()
		r.ID = fmt.Sprintf("0000000%d-old", i)
		r.Title = fmt.Sprintf("Old task %d", i)
		r.LastActivity = fixedNow.Add(-time.Duration(i+1) * 24 * time.Hour)
		recs = append(recs, r)
	}
	if err := st.Commit(context.Background(), tally.Batch{Sessions: recs}); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	env := testEnv(st, &out, &errOut, map[string]string{"CLAUDE_CONFIG_DIR": t.TempDir()})
	a := &app{env: env, following: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan ExitCode, 1)
	go func() { done <- a.run(ctx, nil) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "tally sessions") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != ExitOK {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
	got := out.String()
	if !strings.HasPrefix(got, "No active sessions. The most recent:\n") || !strings.Contains(got, "'tally sessions' lists them all") {
		t.Fatalf("overview:\n%s", got)
	}
	for i := range 7 {
		if listed := strings.Contains(got, fmt.Sprintf("Old task %d", i)); listed != (i < recentShown) {
			t.Errorf("Old task %d listed: %v; want the %d most recent:\n%s", i, listed, recentShown, got)
		}
	}
}

// TestRun_watchNamesTheItemThatChanged: the agent's second TodoWrite
// completes its first item and starts the second (captured/README.md,
// scenario todowrite); the line for it says so, item by item, instead of
// repeating the current step.
func TestRun_watchNamesTheItemThatChanged(t *testing.T) {
	lines := todowriteLines(t)
	f := startFollowing(t, "watch")
	f.write(lines[:33]) // through the first TodoWrite and its result
	f.wait(func(out string) bool { return strings.Contains(out, "0/3") })
	f.write(lines[33:44]) // through the second
	out := f.wait(func(out string) bool { return strings.Contains(out, "1/3") })
	if code := f.stop(); code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	last := rows[len(rows)-1]
	if !strings.HasSuffix(last, "1/3  ✓ Write greeting module (completed); ◼ Add unit test (in progress)") {
		t.Errorf("the line for the second TodoWrite does not name what changed:\n%s", out)
	}
	if !strings.HasSuffix(rows[0], "0/3  ◼ Writing greeting module") {
		t.Errorf("a session new to the output shows its current step:\n%s", out)
	}
}
