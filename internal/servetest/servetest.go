package servetest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// Replica is one running `tally serve`.
type Replica struct {
	// URL is where it serves, ending in a slash: http://127.0.0.1:PORT/.
	URL string
	cmd *exec.Cmd

	mu     sync.Mutex
	stderr strings.Builder
	exited chan struct{}
}

// Start runs bin serve on db at a free loopback port, with a home of its
// own holding no agent's sessions, and waits until it serves. extra are
// more arguments. The process is stopped when the test ends.
func Start(t testing.TB, bin, db string, extra ...string) *Replica {
	t.Helper()
	home := t.TempDir()
	args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(bin, args...)
	// Only what a server needs: nothing of the machine's agents.
	cmd.Env = testhome.Environ(home)
	r := &Replica{cmd: cmd, exited: make(chan struct{})}
	cmd.Stderr = writerFunc(func(p []byte) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.stderr.Len() < 1<<16 {
			r.stderr.Write(p)
		}
	})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(r.exited) }()
	t.Cleanup(r.Stop)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "tally: serving "); ok {
				addr <- strings.Fields(rest)[0]
			}
		}
	}()
	select {
	case r.URL = <-addr:
	case <-r.exited:
		t.Fatalf("tally serve exited before serving:\n%s", r.Stderr())
	case <-time.After(60 * time.Second):
		t.Fatalf("tally serve did not start within a minute:\n%s", r.Stderr())
	}
	return r
}

// Stderr is what the process wrote to its standard error so far.
func (r *Replica) Stderr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stderr.String()
}

// PID is the process id.
func (r *Replica) PID() int { return r.cmd.Process.Pid }

// Kill ends the process at once (SIGKILL), as a crash or an OOM kill
// would, and waits for it.
func (r *Replica) Kill() {
	_ = r.cmd.Process.Kill()
	<-r.exited
}

// Stop asks the process to stop (SIGINT, as Ctrl-C) and waits for it;
// past 10 s it is killed.
func (r *Replica) Stop() {
	select {
	case <-r.exited:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-r.exited:
	case <-time.After(10 * time.Second):
		r.Kill()
	}
}

// RSS is the process's resident memory now and at its peak, in bytes.
func (r *Replica) RSS() (now, peak int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.PID()))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch {
		case err != nil:
		case k == "VmRSS":
			now = kb << 10
		case k == "VmHWM":
			peak = kb << 10
		}
	}
	if now == 0 {
		return 0, 0, errors.New("no VmRSS in /proc status")
	}
	return now, peak, nil
}

type writerFunc func([]byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

// CPU is the processor time the process has used so far, user and system.
func (r *Replica) CPU() (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", r.PID()))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: utime and stime are the 12th and 13th of them, in
	// clock ticks (100 a second on Linux).
	rest := string(data)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}
