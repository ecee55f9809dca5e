package tasks

import (
	"fmt"
	"strings"

	"github.com/tallyhq/tally"
)

// The refusals of a list's rules. Each arrives as the Err of a
// *tally.Error (its Code says what kind of refusal it is) and carries the
// facts a caller needs to say what to do instead; find one with errors.As.
// Their messages state what is wrong and nothing more.

// NotFoundError: the list has no live task ID.
type NotFoundError struct {
	List, ID string
	// Deleted: the task was in this round of the list and was deleted.
	Deleted bool
	// Live are the ids of the live tasks.
	Live []string
}

func (e *NotFoundError) Error() string {
	live := "it has no live tasks"
	if len(e.Live) > 0 {
		live = "its live tasks are " + strings.Join(e.Live, ", ")
	}
	if e.Deleted {
		return fmt.Sprintf("task #%s of list %s was deleted; %s", e.ID, e.List, live)
	}
	return fmt.Sprintf("no task #%s in list %s; %s", e.ID, e.List, live)
}

// PlanModeError: the list is a plan waiting for approval, and the call
// would execute it.
type PlanModeError struct {
	List string
	// Status is the status a task was asked to take; StatusUnknown when
	// the call wrote the whole checklist.
	Status tally.Status
}

func (e *PlanModeError) Error() string {
	return fmt.Sprintf("list %s is in plan mode: execution is not allowed until the plan is approved", e.List)
}

// BlockedError: a task cannot start while a blocker has work left.
type BlockedError struct {
	Task string
	// Blockers are the open blockers of Task.
	Blockers []tally.Item
}

func (e *BlockedError) Error() string {
	open := make([]string, len(e.Blockers))
	for i, b := range e.Blockers {
		open[i] = fmt.Sprintf("#%s (%s, %s)", b.ID, b.Title, b.Status)
	}
	return fmt.Sprintf("task #%s cannot start: it is blocked by %s", e.Task, strings.Join(open, ", "))
}

// BusyError: the call would leave more than one task in progress.
type BusyError struct {
	// Start is the task the call would start.
	Start string
	// Current is the task already in progress, nil when the call itself
	// starts several.
	Current *tally.Item
	// Count is how many tasks would be in progress.
	Count int
}

func (e *BusyError) Error() string {
	if e.Current != nil {
		return fmt.Sprintf("task #%s (%s) is already in progress and only one task per list may be", e.Current.ID, e.Current.Title)
	}
	return fmt.Sprintf("%d tasks would be in progress at once and only one per list may be", e.Count)
}

// ClaimError: a task in progress belongs to its owner until it is done.
type ClaimError struct {
	Task, Owner, Claimant string
}

func (e *ClaimError) Error() string {
	return fmt.Sprintf("task #%s is in progress and owned by %s; %q cannot claim it", e.Task, e.Owner, e.Claimant)
}
