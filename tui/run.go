package tui

import (
	"context"
	"errors"
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// Terminal is where the dashboard runs.
type Terminal struct {
	In  io.Reader
	Out io.Writer
	// Environ decides the colour profile (TERM, COLORTERM, NO_COLOR).
	Environ []string
	// Drawn, if set, is called once, on a goroutine of its own, when the
	// first frame has been written to Out: the work that can wait for it
	// (the indexer's catch-up) starts there, so it does not delay it.
	Drawn func()
}

// fps is how often the renderer looks for a new frame to draw. Each look
// wakes the process even when nothing changed, so it sets the idle cost
// (BenchmarkTUI_Idle: about 5, 8 and 12 ms of CPU a second at 20, 30 and
// 60 on a loaded 2-core machine); a new frame waits at most 1/fps, and the
// first frame waits for the first look: 30 keeps that under 34 ms of the
// 100 a start may take. The 80 ms spinner turns every third frame or so.
const fps = 30

// Program builds the dashboard's program on t. The caller feeds it (Feed,
// Status) with its Send and runs it with Run.
//
// The model reads only the records in o.Records before its first frame;
// the rest of the store is read once that frame is on the terminal.
func Program(ctx context.Context, o Options, t Terminal) *tea.Program {
	var p *tea.Program
	ready := make(chan struct{})
	out := watch(t.Out, func() {
		<-ready
		p.Send(drawn{})
		if t.Drawn != nil {
			t.Drawn()
		}
	})
	p = tea.NewProgram(New(ctx, o),
		tea.WithContext(ctx),
		tea.WithInput(t.In),
		tea.WithOutput(out),
		tea.WithEnvironment(t.Environ),
		// The caller's context stands for SIGINT and SIGTERM; in the
		// terminal's raw mode Ctrl-C arrives as a key.
		tea.WithoutSignalHandler(),
		tea.WithFPS(fps),
	)
	close(ready)
	return p
}

// Run runs p until q or Ctrl-C (nil), or ctx ends (nil as well: being
// told to stop is a normal end).
func Run(ctx context.Context, p *tea.Program) error {
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil || errors.Is(err, tea.ErrInterrupted) {
		return nil
	}
	return err
}

// Printer is a writer onto p's terminal for escape sequences of one's own
// (a terminal notification): each write goes out whole between two
// frames, never inside one. Writes after p has ended are dropped; a write
// before p runs waits for it.
func Printer(p *tea.Program) io.Writer { return printer{p} }

type printer struct{ p *tea.Program }

func (w printer) Write(b []byte) (int, error) {
	w.p.Send(tea.RawMsg{Msg: string(b)})
	return len(b), nil
}

// drawn says the first frame is on the terminal.
type drawn struct{}

// firstWrite passes writes through to w and calls first, on a goroutine
// of its own, after the first one: Bubble Tea writes nothing until its
// renderer's first tick, which writes the first frame.
type firstWrite struct {
	w     io.Writer
	once  sync.Once
	first func()
}

func (f *firstWrite) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	f.once.Do(func() { go f.first() })
	return n, err
}

// file is a terminal's file: Bubble Tea finds the terminal's size and
// switches it to raw mode through it.
type file interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// watchedFile is a firstWrite that is still the terminal's file.
type watchedFile struct {
	*firstWrite
	f file
}

func (w watchedFile) Read(b []byte) (int, error) { return w.f.Read(b) }
func (w watchedFile) Close() error               { return w.f.Close() }
func (w watchedFile) Fd() uintptr                { return w.f.Fd() }

// watch wraps out so that first is called after its first write, keeping
// what Bubble Tea looks for in an output (its file descriptor).
func watch(out io.Writer, first func()) io.Writer {
	fw := &firstWrite{w: out, first: first}
	if f, ok := out.(file); ok {
		return watchedFile{firstWrite: fw, f: f}
	}
	return fw
}
