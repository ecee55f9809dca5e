package follow

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/normalize"
)

// Mode says how the list is drawn.
type Mode uint8

const (
	// ModeAuto draws in place when out is a terminal, plainly otherwise.
	ModeAuto Mode = iota
	ModeTerminal
	ModePlain
)

// Options configure Run.
type Options struct {
	// Stream says which agents can be read and how (see normalize).
	Stream normalize.Options
	Mode   Mode
	// NoColor turns colour off on a terminal (NO_COLOR is the caller's to
	// read).
	NoColor bool
	// Width and Height of the terminal; 0 asks the terminal, then falls
	// back to 80×24.
	Width, Height int
}

// texter is implemented by adapters that can say what assistant text a
// line carries.
type texter interface {
	Text(line []byte) (string, bool)
}

// Run reads in to its end (or until ctx is done, checked between lines)
// and renders it to out.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s, err := normalize.NewStream(in, opts.Stream)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	r := newRenderer(w, opts, out)
	for ctx.Err() == nil {
		step, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("follow: reading input: %w", err)
		}
		tx, _ := s.Adapter().(texter)
		r.step(step, tx)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	r.flushText()
	if err := w.Flush(); err != nil {
		return err
	}
	return ctx.Err()
}

func newRenderer(w *bufio.Writer, opts Options, out io.Writer) *renderer {
	r := &renderer{w: w, width: opts.Width, height: opts.Height, color: !opts.NoColor}
	f, isFile := out.(*os.File)
	switch opts.Mode {
	case ModeTerminal:
		r.live = true
	case ModeAuto:
		r.live = isFile && term.IsTerminal(int(f.Fd()))
	case ModePlain:
	}
	if r.live && isFile && (r.width == 0 || r.height == 0) {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil {
			r.width, r.height = cmp(r.width, w), cmp(r.height, h)
		}
	}
	r.width, r.height = cmp(r.width, 80), cmp(r.height, 24)
	r.color = r.color && r.live
	return r
}

// cmp is the first of a and b that is set.
func cmp(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// step applies one input line: its text goes above the list, its lists
// decide what the list shows.
func (r *renderer) step(st normalize.Step, tx texter) {
	switch {
	case st.Line == nil:
	case !st.Decoded || len(st.Diags) > 0:
		r.flushText()
		r.above(string(st.Line) + "\n")
	case tx != nil:
		if text, ok := tx.Text(st.Line); ok {
			r.text.WriteString(text)
			if i := strings.LastIndexByte(r.text.String(), '\n'); i >= 0 {
				done := r.text.String()[:i+1]
				rest := r.text.String()[i+1:]
				r.text.Reset()
				r.text.WriteString(rest)
				r.above(done)
			}
		} else {
			r.flushText()
		}
	}
	for i := range st.Lists {
		r.offer(&st.Lists[i])
	}
}

// offer applies the lifecycle (see the package doc) to a new version of
// some list.
func (r *renderer) offer(l *normalize.TodoList) {
	if l.List == tally.RuntimeList && r.modelSeen {
		return
	}
	if len(l.Items) == 0 {
		if r.shown != nil && r.shown.AgentID == l.AgentID {
			r.show(nil, l)
		}
		return
	}
	if l.List != tally.RuntimeList {
		r.modelSeen = true
	}
	r.show(l, nil)
}

func (r *renderer) flushText() {
	if r.text.Len() == 0 {
		return
	}
	s := r.text.String()
	r.text.Reset()
	r.above(s + "\n")
}
