package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// pty is a pseudo-terminal a program runs on, as on a person's terminal:
// its standard input and output are the terminal, and it leads a session
// whose controlling terminal it is. Everything it writes is kept.
type pty struct {
	master *os.File
	cmd    *exec.Cmd

	mu  sync.Mutex
	out []byte
	// grew is signalled (without blocking) each time out grows.
	grew chan struct{}
	// closed is closed once the master reads no more.
	closed chan struct{}
}

// startPTY starts cmd on a new w×h terminal. cmd.Stderr, if set, stays
// where it is (a benchmark reads inittrace there).
func startPTY(tb testing.TB, cmd *exec.Cmd, w, h int) *pty {
	tb.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		tb.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		tb.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		tb.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(w), Row: uint16(h)}); err != nil {
		tb.Fatal(err)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = slave, slave
	if cmd.Stderr == nil {
		cmd.Stderr = slave
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	p := &pty{master: master, cmd: cmd, grew: make(chan struct{}, 1), closed: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	slave.Close()
	go p.read()
	return p
}

func (p *pty) read() {
	defer close(p.closed)
	buf := make([]byte, 32<<10)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.out = append(p.out, buf[:n]...)
			p.mu.Unlock()
			select {
			case p.grew <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// waitText waits until what the program wrote, escape sequences aside,
// holds text; it reports when it first did.
func (p *pty) waitText(tb testing.TB, text string, timeout time.Duration) time.Time {
	tb.Helper()
	deadline := time.After(timeout)
	for {
		p.mu.Lock()
		seen := bytes.Contains([]byte(ansi.Strip(string(p.out))), []byte(text))
		p.mu.Unlock()
		if seen {
			return time.Now()
		}
		select {
		case <-p.grew:
		case <-p.closed:
			tb.Fatalf("the program ended before %q showed:\n%s", text, ansi.Strip(string(p.out)))
		case <-deadline:
			tb.Fatalf("%q not shown within %s:\n%s", text, timeout, ansi.Strip(string(p.out)))
		}
	}
}

// output is a copy of everything the program wrote so far.
func (p *pty) output() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Clone(p.out)
}

// send types s on the terminal.
func (p *pty) send(tb testing.TB, s string) {
	tb.Helper()
	if _, err := p.master.WriteString(s); err != nil {
		tb.Fatal(err)
	}
}

// wait waits for the program's exit and closes the terminal.
func (p *pty) wait(tb testing.TB) *os.ProcessState {
	tb.Helper()
	done := make(chan struct{})
	go func() {
		p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-done
		tb.Fatalf("still running 20 s after it was asked to quit:\n%s", ansi.Strip(string(p.out)))
	}
	p.master.Close()
	<-p.closed
	return p.cmd.ProcessState
}
