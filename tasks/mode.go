package tasks

import (
	"context"
	"time"

	"github.com/tallyhq/tally"
)

// Updater is what switching a list's mode needs of a store: fn run on one
// list in one serialised transaction, and the list as committed
// (store/sqlite's UpdateTaskList).
type Updater interface {
	UpdateTaskList(ctx context.Context, name string, fn func(*List) error) (List, error)
}

// SwitchMode puts list name in mode at now, in one transaction of st, and
// returns the list as committed and the mode it had. Approving a plan
// (ModeExecution) needs a list that exists: none is CodeNotFound. Plan
// mode may be asked for before an agent starts the list, which creates
// it. A list already in mode is left as it was, its time included.
//
// `tally tasks approve` and `tally tasks plan`, and the dashboard's
// Approve plan button, all switch modes through it.
func SwitchMode(ctx context.Context, st Updater, name string, mode Mode, now time.Time) (List, Mode, error) {
	was := mode
	l, err := st.UpdateTaskList(ctx, name, func(l *List) error {
		if mode == ModeExecution && l.CreatedAt.IsZero() {
			return tally.Errorf(tally.CodeNotFound, "tasks.SwitchMode", "no task list %q to approve", name)
		}
		was = l.Mode
		if l.Mode != mode {
			l.SetMode(mode, now)
		}
		return nil
	})
	return l, was, err
}
