package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"
)

// Terminal is where the dashboard runs.
type Terminal struct {
	In  io.Reader
	Out io.Writer
	// Environ decides the colour profile (TERM, COLORTERM, NO_COLOR).
	Environ []string
}

// fps is how often the renderer looks for a new frame to draw. It wakes
// that often even when nothing changed, so it is the dashboard's idle
// cost; a new frame waits at most 1/fps (50 ms, well inside the quarter
// second a change may take to show) and the 80 ms spinner still turns on
// every frame.
const fps = 20

// Program builds the dashboard's program on t. The caller feeds it (Feed,
// Status) with its Send and runs it with Run.
func Program(ctx context.Context, o Options, t Terminal) *tea.Program {
	return tea.NewProgram(New(ctx, o),
		tea.WithContext(ctx),
		tea.WithInput(t.In),
		tea.WithOutput(t.Out),
		tea.WithEnvironment(t.Environ),
		// The caller's context stands for SIGINT and SIGTERM; in the
		// terminal's raw mode Ctrl-C arrives as a key.
		tea.WithoutSignalHandler(),
		tea.WithFPS(fps),
	)
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
