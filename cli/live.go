package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// The overview redraws at most this often while changes pour in, and at
// least this often on a terminal so that "3m ago" and idle stay true.
const (
	redrawDelay = 100 * time.Millisecond
	refreshTick = 10 * time.Second
)

// clearScreen moves the cursor home and erases the screen: the whole view
// is redrawn in place.
const clearScreen = "\x1b[H\x1b[2J"

type liveOptions struct {
	*app
}

// runLive is a bare `tally`: the active sessions, redrawn as they change.
// On a terminal the list is redrawn in place; otherwise each version is
// printed after the last, separated by a blank line.
func runLive(ctx context.Context, o *liveOptions) error {
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	f, err := o.follow(ctx, st)
	if err != nil {
		return err
	}
	drawn := 0
	draw := func() error {
		list, err := sessionQuery{Active: true}.run(ctx, st, o.now())
		if err != nil {
			return err
		}
		if err := o.drawOverview(list, drawn); err != nil {
			return err
		}
		drawn++
		return nil
	}
	if err := draw(); err != nil {
		f.stop()
		return err
	}
	var tick <-chan time.Time
	if o.env.OutTTY {
		t := time.NewTicker(refreshTick)
		defer t.Stop()
		tick = t.C
	}
	var redraw <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return f.stop()
		case err := <-f.Done:
			f.unsub()
			return err
		case _, ok := <-f.Changes:
			if !ok {
				return f.stop()
			}
			if redraw == nil {
				redraw = time.After(redrawDelay)
			}
			continue
		case <-redraw:
		case <-tick:
		}
		redraw = nil
		if err := draw(); err != nil && ctx.Err() == nil {
			f.stop()
			return err
		}
	}
}

func (o *liveOptions) drawOverview(list []tally.Session, drawn int) error {
	w := o.env.Out
	if o.env.OutTTY {
		st := termstyle.Painter{On: o.env.color()}
		header := fmt.Sprintf("tally · %d active · %s · Ctrl-C to quit", len(list), o.now().Format(time.TimeOnly))
		if _, err := io.WriteString(w, clearScreen+st.Paint(termstyle.Bold, header)+"\n\n"); err != nil {
			return err
		}
	} else if drawn > 0 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	if len(list) == 0 {
		_, err := io.WriteString(w, "No active sessions.\n")
		return err
	}
	return o.renderTable(list)
}
