package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// osc9 is a terminal notification as the dashboard writes it: ESC ] 9 ;
// text BEL, whole.
var osc9 = regexp.MustCompile("\x1b\\]9;([^\x07\x1b]*)\x07")

// TestTUI_notifiesOnTheTerminal: the dashboard is a long-running Tally
// like serve and watch, so it notifies too. With no notify-send on PATH
// the desktop sink writes the terminal's own notification sequence, whole
// and between frames; the history it reads at start is not news, a
// session finishing its list while it runs is, once.
func TestTUI_notifiesOnTheTerminal(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude")
	claudeHomeOf(t, claude, tuiScenarios...)
	empty := filepath.Join(dir, "bin") // PATH with no notify-send in it
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tallyBin, "--db", filepath.Join(dir, "tally.db"), "--claude-dir", claude)
	cmd.Env = testhome.Environ(dir, "TERM=xterm-256color", "PATH="+empty)
	p := startPTY(t, cmd, 100, 30)
	p.waitText(t, "8 sessions", 20*time.Second)
	// The catch-up of this small home takes well under a second, and the
	// burst window is 2 s: anything it notified would be out by now.
	time.Sleep(4 * time.Second)
	if got := osc9.FindAll(p.output(), -1); len(got) > 0 {
		t.Fatalf("history was notified: %q", got)
	}

	// A new session, begun now, whose list is done at once.
	src := filepath.Join(claude, "projects", "-tmp-capture-cc-todowrite-work", todowriteSession+".jsonl")
	line := todoWriteLine(t, src)
	line = bytes.ReplaceAll(line, []byte(`"status":"in_progress"`), []byte(`"status":"completed"`))
	line = bytes.ReplaceAll(line, []byte(`"status":"pending"`), []byte(`"status":"completed"`))
	const fresh = "0e2e0000-0000-4000-8000-00000000f1n1"
	line = bytes.ReplaceAll(line, []byte(todowriteSession), []byte(fresh))
	if err := os.WriteFile(filepath.Join(filepath.Dir(src), fresh+".jsonl"), append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	p.waitText(t, "0e2e0000", 10*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	var got [][][]byte
	for time.Now().Before(deadline) {
		if got = osc9.FindAllSubmatch(p.output(), -1); len(got) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(got) != 1 || !strings.Contains(string(got[0][1]), "finished") {
		t.Fatalf("terminal notifications %q, want one saying the session finished", got)
	}
	time.Sleep(3 * time.Second)
	if n := len(osc9.FindAll(p.output(), -1)); n != 1 {
		t.Errorf("%d notifications for one finish, want 1", n)
	}
	p.send(t, "q")
	if st := p.wait(t); !st.Success() {
		t.Fatalf("tally did not exit 0 after q: %v", st)
	}
}
