package plan

import (
	"fmt"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
)

// State is what the marker rules look at: every usable task's status and
// its steps' statuses, by task id; why the other task folders cannot be
// used; which tasks were promoted from quick tasks.
type State struct {
	Tasks    []TaskState
	Invalid  map[string]string
	Promoted map[string]bool
}

// TaskState is a task as the rules see it.
type TaskState struct {
	ID     string
	Status TaskStatus
	Steps  []StepState
}

// StepState is a step as the rules see it.
type StepState struct {
	ID     string
	Status StepStatus
}

// StateOf is the rules' view of a loaded plan.
func StateOf(p *Plan) *State {
	s := &State{Invalid: p.Invalid, Promoted: map[string]bool{}}
	for _, t := range p.Tasks {
		ts := TaskState{ID: t.ID, Status: t.Status}
		for _, st := range t.Steps {
			ts.Steps = append(ts.Steps, StepState{ID: st.ID, Status: st.Status})
		}
		s.Tasks = append(s.Tasks, ts)
	}
	for id := range p.facts().promoted {
		s.Promoted[id] = true
	}
	return s
}

// Verdict is what became of a marker.
type Verdict uint8

const (
	// Applied: the plan changed, or a notice (blocked, promoted) was
	// recorded.
	Applied Verdict = iota + 1
	// Unchanged: the plan already says what the marker says.
	Unchanged
	// Rejected: the marker names no usable task or step, or would move
	// the plan backwards; nothing changed.
	Rejected
	// Skipped: the marker is older than the newest marker the plan has
	// taken, so applying it could rewind the plan.
	Skipped
	// Duplicate: a marker with this key was already judged.
	Duplicate
)

var verdictNames = [...]string{Applied: "applied", Unchanged: "unchanged", Rejected: "rejected", Skipped: "skipped", Duplicate: "duplicate"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) && verdictNames[v] != "" {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// MarshalText makes a verdict its word in JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Change sets one status: the task's when Step is empty, else the step's.
type Change struct {
	Task       string
	Step       string
	TaskStatus TaskStatus
	StepStatus StepStatus
}

// Decision is the rules' answer to one marker: the changes to make and
// the ledger entries to write (undated: the caller dates and keys them),
// or why nothing changes.
type Decision struct {
	Verdict Verdict
	Reason  string
	Changes []Change
	Entries []Entry
}

// rule decides one verb. t is the named task; step is the named step, nil
// when the marker names none.
type rule func(s *State, t *TaskState, step *StepState, m tally.Marker) Decision

// rules is the marker rule table, one row per verb.
var rules = map[marker.Verb]rule{
	marker.VerbStart:    ruleStart,
	marker.VerbDone:     ruleDone,
	marker.VerbBlocked:  ruleBlocked,
	marker.VerbPromoted: rulePromoted,
}

// Decide says what marker m does to the plan in s. It is pure: s is only
// read; the caller applies the decision with State.Apply.
func Decide(s *State, m tally.Marker) Decision {
	if m.Unrecognised() {
		return reject("not a progress marker: %s", m.Reason)
	}
	verb, ok := marker.ParseVerb(m.Verb)
	if !ok {
		return reject("%q is not an action: use start, done, blocked or promoted", m.Verb)
	}
	if IsQuick(m) {
		return ruleQuick(m)
	}
	t := s.task(m.Task)
	if t == nil {
		if why, bad := s.Invalid[m.Task]; bad {
			return reject("%s cannot be used: %s", m.Task, why)
		}
		return reject("no task %s in the plan", m.Task)
	}
	var step *StepState
	if m.Step != "" {
		if step = t.step(m.Step); step == nil {
			return reject("%s has no step %s", m.Task, m.Step)
		}
	}
	return rules[verb](s, t, step, m)
}

// ruleStart: a planned task becomes active (the task active before it
// paused: one task is active at a time) and its first step not yet
// complete becomes in progress. Naming a step starts that step, which
// must be the task's current one.
func ruleStart(s *State, t *TaskState, step *StepState, _ tally.Marker) Decision {
	if t.Status == TaskComplete {
		return reject("%s is already complete", t.ID)
	}
	if step != nil {
		cur := t.current()
		switch {
		case step.Status == StepComplete:
			return reject("%s.%s is already complete", t.ID, step.ID)
		case step != cur:
			return reject("%s.%s is not the current step (%s is)", t.ID, step.ID, cur.ID)
		case step.Status == StepInProgress && t.Status == TaskActive:
			return unchanged("%s.%s is already in progress", t.ID, step.ID)
		}
	}
	if t.Status == TaskActive {
		if cur := t.current(); cur != nil && cur.Status == StepPending {
			return Decision{Verdict: Applied,
				Changes: []Change{{Task: t.ID, Step: cur.ID, StepStatus: StepInProgress}},
				Entries: []Entry{{Type: EntryStepStarted, Task: t.ID, Step: cur.ID}}}
		}
		return unchanged("%s is already active", t.ID)
	}
	if t.current() == nil {
		return reject("every step of %s is already complete", t.ID)
	}
	d := Decision{Verdict: Applied}
	d.activate(s, t)
	return d
}

// ruleDone: the step becomes complete and the task's next step in
// progress; the last step completes the task and activates the next
// task (nextPlanned: a paused one first, then by id), or, when no task is
// left, completes the plan — unless another task is active (the files
// said so), which is then the focus. A
// step of a planned task may be done: the task becomes active first.
func ruleDone(s *State, t *TaskState, step *StepState, _ tally.Marker) Decision {
	switch {
	case step == nil:
		return reject("done names a step: progress: %s.S1 done", t.ID)
	case step.Status == StepComplete:
		return reject("%s.%s is already complete", t.ID, step.ID)
	case t.Status == TaskComplete:
		return reject("%s is already complete", t.ID)
	}
	d := Decision{Verdict: Applied}
	if t.Status == TaskPlanned {
		if !t.lastOpen(step) {
			// The task is taken up, not finished at once: it is the
			// focus now.
			d.pauseOthers(s, t)
		}
		d.Changes = append(d.Changes, Change{Task: t.ID, TaskStatus: TaskActive})
		d.Entries = append(d.Entries, Entry{Type: EntryTaskActive, Task: t.ID})
	}
	d.Changes = append(d.Changes, Change{Task: t.ID, Step: step.ID, StepStatus: StepComplete})
	var next *StepState
	done := 0
	for i := range t.Steps {
		st := &t.Steps[i]
		switch {
		case st == step || st.Status == StepComplete:
			done++
		case next == nil:
			next = st
		}
	}
	if next != nil {
		if next.Status == StepPending {
			d.Changes = append(d.Changes, Change{Task: t.ID, Step: next.ID, StepStatus: StepInProgress})
		}
		d.Entries = append(d.Entries, Entry{Type: EntryStepDone, Task: t.ID, Step: step.ID})
		return d
	}
	d.Changes = append(d.Changes, Change{Task: t.ID, TaskStatus: TaskComplete})
	d.Entries = append(d.Entries, Entry{Type: EntryTaskDone, Task: t.ID, Step: step.ID, Done: done, Total: len(t.Steps)})
	if s.activeOther(t.ID) != nil {
		// Another task is active (its files said so): the focus goes
		// to it, and no third task is started.
		return d
	}
	if nt := s.nextPlanned(t.ID); nt != nil {
		d.activate(s, nt)
		return d
	}
	if n, all := s.completeWith(t.ID); all {
		d.Entries = append(d.Entries, Entry{Type: EntryAllDone, Done: n, Total: n})
	}
	return d
}

// ruleBlocked records a notice: the step stays as it is (in progress)
// until a done marker completes it. Without a step, the task's current
// step is meant.
func ruleBlocked(_ *State, t *TaskState, step *StepState, m tally.Marker) Decision {
	if step == nil {
		if step = t.current(); step == nil {
			return reject("%s is already complete", t.ID)
		}
	}
	if step.Status == StepComplete {
		return reject("%s.%s is already complete", t.ID, step.ID)
	}
	return Decision{Verdict: Applied, Entries: []Entry{{Type: EntryStepBlocked, Task: t.ID, Step: step.ID, Reason: m.Reason}}}
}

// rulePromoted records that a quick task became this planned task. Its
// statuses are what the agent wrote (work already done stays done); the
// scope counts it from when its folder appeared.
func rulePromoted(s *State, t *TaskState, step *StepState, _ tally.Marker) Decision {
	if step != nil {
		return reject("promoted names a task, not a step: progress: %s promoted", t.ID)
	}
	if s.Promoted[t.ID] {
		return unchanged("%s was already promoted", t.ID)
	}
	return Decision{Verdict: Applied, Entries: []Entry{{Type: EntryTaskPromoted, Task: t.ID, Reason: "from a quick task"}}}
}

// QuickTask is the task id a quick task's marker names: "progress: quick
// done: Fix the typo in README" records work done without a task file
// (seed 04: "Record as quick_task in ledger"). Plan task ids are T###,
// so it is never one of them.
const QuickTask = "quick"

// IsQuick tells a quick task's marker.
func IsQuick(m tally.Marker) bool { return m.Task == QuickTask && !m.Unrecognised() }

// ruleQuick records a quick task done: a ledger entry with what was done
// and by whom. No task changes; it is counted ("Quick: 3 done").
func ruleQuick(m tally.Marker) Decision {
	switch {
	case m.Step != "" || m.Verb != string(marker.VerbDone):
		return reject("a quick task is recorded once done: progress: quick done: what was done")
	case m.Reason == "":
		return reject("a quick task says what was done: progress: quick done: Fix the typo in README")
	}
	return Decision{Verdict: Applied, Entries: []Entry{{Type: EntryQuickTask, Description: m.Reason}}}
}

func reject(format string, args ...any) Decision {
	return Decision{Verdict: Rejected, Reason: fmt.Sprintf(format, args...)}
}

func unchanged(format string, args ...any) Decision {
	return Decision{Verdict: Unchanged, Reason: fmt.Sprintf(format, args...)}
}

// activate makes t active and its current step in progress; a task
// active before it is paused (pauseOthers).
func (d *Decision) activate(s *State, t *TaskState) {
	d.pauseOthers(s, t)
	d.Changes = append(d.Changes, Change{Task: t.ID, TaskStatus: TaskActive})
	if cur := t.current(); cur != nil && cur.Status == StepPending {
		d.Changes = append(d.Changes, Change{Task: t.ID, Step: cur.ID, StepStatus: StepInProgress})
	}
	d.Entries = append(d.Entries, Entry{Type: EntryTaskActive, Task: t.ID})
}

// pauseOthers pauses every task active but t, which is about to become
// active: one task is active at a time, the current focus (seed 04's
// "one task active at a time"; seed 05's single current focus). A paused
// task goes back to planned with its steps as they are, the work done
// kept; completing the task in focus resumes it before any task not
// begun (nextPlanned).
func (d *Decision) pauseOthers(s *State, t *TaskState) {
	for i := range s.Tasks {
		if o := &s.Tasks[i]; o.ID != t.ID && o.Status == TaskActive && !d.completes(o.ID) {
			d.Changes = append(d.Changes, Change{Task: o.ID, TaskStatus: TaskPlanned})
			d.Entries = append(d.Entries, Entry{Type: EntryTaskPaused, Task: o.ID,
				Reason: t.ID + " started: one task is active at a time"})
		}
	}
}

// completes tells whether the decision completes task id.
func (d *Decision) completes(id string) bool {
	for _, c := range d.Changes {
		if c.Task == id && c.Step == "" && c.TaskStatus == TaskComplete {
			return true
		}
	}
	return false
}

// Apply makes a decision's changes and notes its promotions.
func (s *State) Apply(d Decision) {
	for _, c := range d.Changes {
		t := s.task(c.Task)
		if t == nil {
			continue
		}
		if c.Step == "" {
			t.Status = c.TaskStatus
		} else if st := t.step(c.Step); st != nil {
			st.Status = c.StepStatus
		}
	}
	for _, e := range d.Entries {
		if e.Type == EntryTaskPromoted {
			s.Promoted[e.Task] = true
		}
	}
}

func (s *State) task(id string) *TaskState {
	for i := range s.Tasks {
		if s.Tasks[i].ID == id {
			return &s.Tasks[i]
		}
	}
	return nil
}

// nextPlanned is the task to take up next, other than except: the first
// planned task by id whose work has begun (one paused, see pauseOthers),
// else the first planned task by id.
func (s *State) nextPlanned(except string) *TaskState {
	var first *TaskState
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if t.ID == except || t.Status != TaskPlanned {
			continue
		}
		if t.begun() {
			return t
		}
		if first == nil {
			first = t
		}
	}
	return first
}

// activeOther is an active task other than except, nil when none is.
func (s *State) activeOther(except string) *TaskState {
	for i := range s.Tasks {
		if t := &s.Tasks[i]; t.ID != except && t.Status == TaskActive {
			return t
		}
	}
	return nil
}

// lastOpen tells whether step is the task's only step not complete.
func (t *TaskState) lastOpen(step *StepState) bool {
	for i := range t.Steps {
		if st := &t.Steps[i]; st != step && st.Status != StepComplete {
			return false
		}
	}
	return true
}

// begun tells a task with a step no longer pending.
func (t *TaskState) begun() bool {
	for _, st := range t.Steps {
		if st.Status != StepPending {
			return true
		}
	}
	return false
}

// completeWith tells whether completing task id completes the plan: every
// other task complete and no task folder unusable. n counts the tasks.
func (s *State) completeWith(id string) (n int, all bool) {
	if len(s.Invalid) > 0 {
		return 0, false
	}
	for _, t := range s.Tasks {
		if t.ID != id && t.Status != TaskComplete {
			return 0, false
		}
	}
	return len(s.Tasks), true
}

func (t *TaskState) step(id string) *StepState {
	for i := range t.Steps {
		if t.Steps[i].ID == id {
			return &t.Steps[i]
		}
	}
	return nil
}

func (t *TaskState) current() *StepState {
	for i := range t.Steps {
		if t.Steps[i].Status != StepComplete {
			return &t.Steps[i]
		}
	}
	return nil
}
