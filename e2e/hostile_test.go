package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// watcher is `tally watch --json` running over a Claude Code home, its
// changes read line by line.
type watcher struct {
	t     *testing.T
	cmd   *exec.Cmd
	lines chan string
	// stderr is what watch said on standard error; read it once the
	// process has ended.
	stderr bytes.Buffer
}

func startWatch(t *testing.T, claude, db string) *watcher {
	t.Helper()
	cmd := exec.Command(tallyBin, "watch", "--json", "--db", db, "--claude-dir", claude)
	cmd.Env = testhome.Environ(t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &watcher{t: t, cmd: cmd, lines: make(chan string, 100)}
	cmd.Stderr = &w.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		io.Copy(io.Discard, out)
		close(w.lines)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return w
}

// waitFor reads changes until one names session id. poke, if not nil, is
// called every half second meanwhile.
func (w *watcher) waitFor(id, what string, poke func()) {
	w.t.Helper()
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if poke != nil {
				poke()
			}
		case line, ok := <-w.lines:
			if !ok {
				w.t.Fatalf("watch ended before %s", what)
			}
			var ch struct {
				Session struct{ ID string } `json:"session"`
			}
			if json.Unmarshal([]byte(line), &ch) == nil && ch.Session.ID == id {
				return
			}
		case <-deadline:
			w.t.Fatalf("watch never printed %s", what)
		}
	}
}

// stop sends SIGTERM and fails unless watch exits 0 within a few seconds.
func (w *watcher) stop() {
	w.t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		w.t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- w.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			w.t.Errorf("watch after SIGTERM: %v", err)
		}
	case <-time.After(5 * time.Second):
		w.t.Fatal("watch was still running 5 s after SIGTERM")
	}
}

// appendLine appends a line that moves the session's last activity to now.
func appendLine(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := `{"type":"user","timestamp":"` + time.Now().UTC().Format(time.RFC3339Nano) + `","message":{"role":"user","content":"go on"}}` + "\n"
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

// session copies a real capture into the home as session id's log, and
// returns its path.
func session(t *testing.T, claude, project, id string) string {
	t.Helper()
	src, _ := filepath.Glob(fixtures + "captured/claude-code-2.1.330/todowrite/config/projects/*/*.jsonl")
	if len(src) != 1 {
		t.Fatalf("capture: %v", src)
	}
	data, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(claude, "projects", project)
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWatch_APipeNamedLikeALogFreezesNothing: a named pipe created as
// *.jsonl under a watched home while watch runs. Opening it for reading
// would wait for a writer for ever; the sessions written next still show,
// and SIGTERM still ends watch at once.
func TestWatch_APipeNamedLikeALogFreezesNothing(t *testing.T) {
	claude := t.TempDir()
	os.MkdirAll(filepath.Join(claude, "projects", "-work-p"), 0o755)
	first := session(t, claude, "-work-p", "11111111-0000-4000-8000-000000000001")
	w := startWatch(t, claude, filepath.Join(t.TempDir(), "tally.db"))
	// Once watch is live, a line appended to a session is news.
	w.waitFor("11111111-0000-4000-8000-000000000001", "a line appended to the first session", func() { appendLine(t, first) })

	fifo := filepath.Join(claude, "projects", "-work-p", "22222222-0000-4000-8000-000000000002.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // let a reader stuck in open go, so a failing test ends
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
	time.Sleep(200 * time.Millisecond) // the pipe's notification first
	session(t, claude, "-work-p", "33333333-0000-4000-8000-000000000003")
	w.waitFor("33333333-0000-4000-8000-000000000003", "the session written after the pipe appeared", nil)
	w.stop()
}
