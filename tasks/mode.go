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

// Store keeps Tally's own task lists: the part of the stores' contract
// (package store) the task tools, tally tasks and the board's approval
// use.
type Store interface {
	Updater
	// TaskList reads a list; CodeNotFound if it was never written.
	TaskList(ctx context.Context, name string) (List, error)
	// TaskLists lists the lists, the most recently changed first.
	TaskLists(ctx context.Context) ([]List, error)
	// ArchivedTaskLists are the finished rounds of a list, oldest first.
	ArchivedTaskLists(ctx context.Context, name string) ([]List, error)
}

// Switched is what SwitchMode did.
type Switched struct {
	// List is the list as committed.
	List List
	// Was is the mode the list had; for a list just created, ModeExecution,
	// the mode of a list no one asked anything of.
	Was Mode
	// Created: the list did not exist and plan mode made it, empty.
	Created bool
}

// SwitchMode puts list name in mode at now, in one transaction of st.
// Approving a plan (ModeExecution) needs a list that exists: none is
// CodeNotFound. Plan mode may be asked for before an agent starts the
// list, which creates it (Switched.Created says so; until it has tasks it
// awaits nobody, see Record). A list already in mode is left as it was,
// its time included.
//
// `tally tasks approve` and `tally tasks plan`, and the dashboard's
// Approve plan button, all switch modes through it.
func SwitchMode(ctx context.Context, st Updater, name string, mode Mode, now time.Time) (Switched, error) {
	sw := Switched{Was: mode}
	l, err := st.UpdateTaskList(ctx, name, func(l *List) error {
		if l.CreatedAt.IsZero() {
			if mode == ModeExecution {
				return tally.Errorf(tally.CodeNotFound, "tasks.SwitchMode", "no task list %q to approve", name)
			}
			sw.Created = true
		}
		sw.Was = l.Mode
		if l.Mode != mode {
			l.SetMode(mode, now)
		}
		return nil
	})
	sw.List = l
	return sw, err
}
