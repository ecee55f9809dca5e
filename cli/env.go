package cli

import (
	"context"
	"io"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/tallyhq/tally/store"
	"golang.org/x/term"
)

// OpenStore opens the store at path. The command wiring passes the real
// one (store/sqlite); tests pass an in-memory store.
type OpenStore func(ctx context.Context, path string) (store.Store, error)

// Env is everything a command takes from the process. Nothing else in Tally
// reads the environment, the home directory or the working directory:
// every default built on them (where each agent keeps its sessions) is
// resolved from Env, in agentDirs, so a test's Env decides all a command
// reads.
type Env struct {
	In       io.Reader
	Out, Err io.Writer
	// OutTTY and ErrTTY tell whether the streams are terminals: only then
	// do commands colour, truncate, draw progress bars or move the cursor.
	OutTTY, ErrTTY bool
	// Width is Out's width in columns; 0 means unknown (no truncation).
	Width  func() int
	Getenv func(string) string
	Now    func() time.Time
	// Home is the user's home directory: agents keep their sessions under
	// it, and it is shown as ~ in project paths. "" means unknown (only
	// agents whose directories are named by flag or variable are read).
	Home string
	// Dir is the working directory: a project's Crush database is found
	// under it, and tally mcp's lists name it as their project.
	Dir string
	// Hostname is this machine's name: what tally push says its sessions
	// come from unless told otherwise. "" means unknown.
	Hostname string
	// Executable is the path of the running program (os.Executable): the
	// tally that tally setup installs into the agents' settings unless
	// told another. nil or an error means unknown.
	Executable func() (string, error)

	OpenStore OpenStore
	// DefaultDB is the store path used without --db or $TALLY_DB; its
	// error is reported only if a command needs the store.
	DefaultDB func(xdgDataHome, home string) (string, error)
	// Resolver finds the addresses of a host name serve is asked to
	// listen on; nil is net.DefaultResolver.
	Resolver Resolver
}

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Main runs tally with the process's streams and arguments; Ctrl-C or
// SIGTERM cancels the command, which then exits normally, and a second
// one ends the process at once (see interruptible).
func Main(args []string, open OpenStore, defaultDB func(xdgDataHome, home string) (string, error)) ExitCode {
	ctx, stop := interruptible(context.Background())
	defer stop()
	return Run(ctx, System(open, defaultDB), args)
}

// interruptible is parent cancelled by the first SIGINT or SIGTERM. The
// first one is caught, so a command ends as it should (its last commit
// made, its terminal restored); after it Tally stops catching them, so a
// second one ends the process whatever it is doing: a person pressing
// Ctrl-C twice, or a service manager's second TERM, is never swallowed.
// stop lets go of the signals and cancels the context.
func interruptible(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			signal.Stop(sigs) // the next one takes its default course: the end
			cancel()
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			signal.Stop(sigs)
			cancel()
		})
	}
}

// System is the Env of this process.
func System(open OpenStore, defaultDB func(xdgDataHome, home string) (string, error)) Env {
	home, _ := os.UserHomeDir()
	dir, _ := os.Getwd()
	host, _ := os.Hostname()
	outTTY := term.IsTerminal(int(os.Stdout.Fd()))
	return Env{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		OutTTY: outTTY, ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Width: func() int {
			if !outTTY {
				return 0
			}
			if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
				return w
			}
			if w, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && w > 0 {
				return w
			}
			return 80
		},
		Getenv: os.Getenv, Now: time.Now, Home: home, Dir: dir, Hostname: host, Executable: os.Executable,
		OpenStore: open, DefaultDB: defaultDB, Resolver: net.DefaultResolver,
	}
}

// color tells whether Out may carry ANSI colour (https://no-color.org).
func (e *Env) color() bool {
	return e.OutTTY && e.Getenv("NO_COLOR") == "" && e.Getenv("TERM") != "dumb"
}

func (e *Env) width() int {
	if e.Width == nil {
		return 0
	}
	return e.Width()
}
