package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// captureTime is a minute after the todowrite capture ended, so that its
// session is still active.
var captureTime = time.Date(2026, 11, 22, 14, 7, 0, 0, time.UTC)

const todowriteSession = "bfd476f6-2564-4246-aaa4-e4c25c7ee9b5"

// follow starts `tally args…` on an empty Claude home, waits until it
// follows live, then drops the todowrite capture in (renamed into place,
// as an agent's file appears whole to a reader). It returns the output
// once until(out) holds, and the exit code after Ctrl-C.
func follow(t *testing.T, until func(out string) bool, args ...string) (string, ExitCode) {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(home, "projects", "-tmp-capture-cc-todowrite-work")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	env := testEnv(newStore(t), &out, &errOut, map[string]string{"CLAUDE_CONFIG_DIR": home})
	env.Now = func() time.Time { return captureTime }
	a := &app{env: env, rescan: 200 * time.Millisecond, following: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan ExitCode, 1)
	go func() { done <- a.run(ctx, args) }()
	select {
	case <-a.following:
	case code := <-done:
		t.Fatalf("exit %d before following: %s", code, errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("never started following")
	}
	src, err := os.ReadFile(filepath.Join(captured, "todowrite/config/projects/-tmp-capture-cc-todowrite-work", todowriteSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(home, "incoming")
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(proj, todowriteSession+".jsonl")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !until(out.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no change seen; stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := out.String()
	cancel()
	select {
	case code := <-done:
		return got, code
	case <-time.After(10 * time.Second):
		t.Fatal("did not stop after Ctrl-C")
	}
	return "", 0
}

func TestRun_watchJSON(t *testing.T) {
	// The capture's last TodoWrite marks all three items completed
	// (captured/README.md, scenario todowrite, turn 7).
	allDone := func(out string) bool { return strings.Contains(out, `"done":3,"total":3`) }
	out, code := follow(t, allDone, "watch", "--json")
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
		if ev.Type != "session_updated" || ev.Session.ID != todowriteSession || ev.Session.Agent != tally.AgentClaude {
			t.Errorf("change = %s %s %s", ev.Type, ev.Session.Agent, ev.Session.ID)
		}
	}
}

func TestRun_watchLines(t *testing.T) {
	out, code := follow(t, func(out string) bool { return strings.Contains(out, "3/3") }, "watch")
	if code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}
	if !strings.HasPrefix(out, "14:07:00 claude …/todowrite/work Create greet.py") {
		t.Errorf("watch line = %q", out)
	}
}

func TestRun_overviewPlain(t *testing.T) {
	out, code := follow(t, func(out string) bool { return strings.Contains(out, todowriteSession) }, "--db", "x")
	if code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}
	// Not a terminal: each version of the list after the last, separated
	// by a blank line, with no cursor movement.
	if !strings.HasPrefix(out, "No active sessions.\n\n") || strings.Contains(out, "\x1b") {
		t.Errorf("overview output:\n%q", out)
	}
}
