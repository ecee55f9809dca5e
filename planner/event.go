package planner

import (
	"fmt"
	"time"

	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planview"
)

// EventKind is which news a plan event is.
type EventKind uint8

const (
	// EventTaskComplete: a task's last step was done.
	EventTaskComplete EventKind = iota + 1
	// EventStepBlocked: an agent said a step is blocked.
	EventStepBlocked
	// EventPlanComplete: the plan's last task was completed.
	EventPlanComplete
)

var eventNames = [...]string{EventTaskComplete: "task_complete", EventStepBlocked: "step_blocked", EventPlanComplete: "plan_complete"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// eventKinds are the ledger entries that are news.
var eventKinds = map[plan.EntryType]EventKind{
	plan.EntryTaskDone:    EventTaskComplete,
	plan.EntryStepBlocked: EventStepBlocked,
	plan.EntryAllDone:     EventPlanComplete,
}

// Event is a plan's news, made by a marker.
type Event struct {
	Kind    EventKind
	Project string
	Folder  string
	// Session is whose marker it was.
	Session string
	Task    string
	// TaskName is the task's name in its file.
	TaskName string
	Step     string
	Reason   string
	// Done and Total are the plan's tasks after the marker; Quick counts
	// the quick tasks done beside it.
	Done, Total, Quick int
	// At is when the agent wrote the marker: news only if it is recent.
	At time.Time
	// Text says it as the timeline does ("✓ T001 complete (4/4)").
	Text string
}

func eventOf(project string, pl *plan.Plan, e plan.Entry) Event {
	done, total := pl.Progress()
	ev := Event{Kind: eventKinds[e.Type], Project: project, Folder: pl.Dir, Session: e.By, Task: e.Task, Step: e.Step,
		Reason: e.Reason, Done: done, Total: total, Quick: pl.QuickTasks(), At: e.At, Text: planview.TimelineText(e)}
	if t := pl.Task(e.Task); t != nil {
		ev.TaskName = t.Name
	}
	return ev
}
