package cli

import (
	"context"
	"time"
)

// redrawDelay: the overview is printed at most this often while changes
// pour in.
const redrawDelay = 100 * time.Millisecond

type overviewOptions struct {
	*app
}

// runOverview is a bare `tally` into a pipe (a terminal gets the
// dashboard): the active sessions (the most recent ones when none is
// active, where it looked when there is none), each version printed after
// the last, separated by a blank line.
func runOverview(ctx context.Context, o *overviewOptions) error {
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	drawn := 0
	draw := func() error {
		v, err := o.overview(ctx, st)
		if err != nil {
			return err
		}
		if err := o.drawOverview(v, drawn); err != nil {
			return err
		}
		drawn++
		return nil
	}
	l, err := o.newLive(ctx, st, liveOptions{bar: true, notify: notifyPlans})
	if err != nil {
		return err
	}
	// The first screen is what the catch-up found, drawn before going
	// live: a change is news, drawn after it.
	if err := l.CatchUp(ctx); err != nil {
		return err
	}
	if err := draw(); err != nil {
		l.closeNews()
		return err
	}
	f := l.Follow(ctx)
	o.nowLive()
	var redraw <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return f.stop()
		case err := <-f.Done:
			f.Changes.Close()
			return err
		case _, ok := <-f.Changes.C:
			if !ok {
				return f.stop()
			}
			if redraw == nil {
				redraw = time.After(redrawDelay)
			}
			continue
		case <-redraw:
		}
		redraw = nil
		if err := draw(); err != nil && ctx.Err() == nil {
			f.stop()
			return err
		}
	}
}
