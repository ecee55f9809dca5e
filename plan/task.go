package plan

import (
	"fmt"
	"regexp"
	"slices"
)

// TaskStatus is where a task is in its life: planned, then active, then
// complete. Tally, not the agent, moves it on.
type TaskStatus string

const (
	TaskPlanned  TaskStatus = "planned"
	TaskActive   TaskStatus = "active"
	TaskComplete TaskStatus = "complete"
)

// ParseTaskStatus accepts exactly the three words a task.yaml may hold.
func ParseTaskStatus(s string) (TaskStatus, bool) {
	switch v := TaskStatus(s); v {
	case TaskPlanned, TaskActive, TaskComplete:
		return v, true
	}
	return "", false
}

func (s TaskStatus) String() string { return string(s) }

// StepStatus is where a step is: pending, in_progress, complete.
type StepStatus string

const (
	StepPending    StepStatus = "pending"
	StepInProgress StepStatus = "in_progress"
	StepComplete   StepStatus = "complete"
)

// ParseStepStatus accepts exactly the three words a step may hold.
func ParseStepStatus(s string) (StepStatus, bool) {
	switch v := StepStatus(s); v {
	case StepPending, StepInProgress, StepComplete:
		return v, true
	}
	return "", false
}

func (s StepStatus) String() string { return string(s) }

// A task has between MinSteps and MaxSteps steps: fewer is not worth a
// plan, more is two tasks.
const (
	MinSteps = 2
	MaxSteps = 8
)

var (
	taskIDPattern = regexp.MustCompile(`^T\d{3}$`)
	stepIDPattern = regexp.MustCompile(`^S\d+$`)
)

// Step is one step of a task, as its file says.
type Step struct {
	ID     string     `json:"id"`
	Name   string     `json:"name"`
	Done   string     `json:"done"` // what "complete" means for this step
	Status StepStatus `json:"status"`
}

// Task is one task.yaml: what the agent planned and the statuses Tally
// keeps. Everything else about a task (its current step, X/Y, when it
// started) is computed from this and the ledger, never stored.
type Task struct {
	ID     string     `json:"id"`
	Name   string     `json:"name"`
	Goal   string     `json:"goal"`
	Status TaskStatus `json:"status"`
	Steps  []Step     `json:"steps"`
	// Dir is the task's folder within the plan folder ("T003-dashboard");
	// empty for a task parsed on its own.
	Dir string `json:"dir,omitempty"`

	src *source // the file as read, so an edit keeps everything else
}

// clone is a copy of t whose statuses can be changed: the source it was
// read from is shared, as nothing changes it.
func (t *Task) clone() *Task {
	c := *t
	c.Steps = slices.Clone(t.Steps)
	return &c
}

// Current is the first step not complete: the one being worked on, or
// next to be. Nil when every step is complete.
func (t *Task) Current() *Step {
	for i := range t.Steps {
		if t.Steps[i].Status != StepComplete {
			return &t.Steps[i]
		}
	}
	return nil
}

// Progress is how many steps are complete, of how many.
func (t *Task) Progress() (done, total int) {
	for _, s := range t.Steps {
		if s.Status == StepComplete {
			done++
		}
	}
	return done, len(t.Steps)
}

// Step returns the step with id, or nil.
func (t *Task) Step(id string) *Step {
	for i := range t.Steps {
		if t.Steps[i].ID == id {
			return &t.Steps[i]
		}
	}
	return nil
}

// Percent is done/total as a whole percentage, rounded down (1/3 is 33%).
func Percent(done, total int) int {
	if total <= 0 {
		return 0
	}
	return done * 100 / total
}

// TaskID formats the n-th task id: 1 is "T001".
func TaskID(n int) string { return fmt.Sprintf("T%03d", n) }
