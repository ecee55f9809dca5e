package plan

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
)

// state reads a plan written as "T001 active ✓→○; T002 planned ○○": each
// task's id and status, then one mark per step S1, S2, …:
// ✓ complete, → in_progress, ○ pending.
func state(t *testing.T, spec string) *State {
	t.Helper()
	s := &State{Invalid: map[string]string{}, Promoted: map[string]bool{}}
	for _, part := range strings.Split(spec, ";") {
		f := strings.Fields(part)
		if len(f) != 3 {
			t.Fatalf("bad task %q", part)
		}
		status, ok := ParseTaskStatus(f[1])
		if !ok {
			t.Fatalf("bad status in %q", part)
		}
		ts := TaskState{ID: f[0], Status: status}
		for i, r := range []rune(f[2]) {
			st := map[rune]StepStatus{'✓': StepComplete, '→': StepInProgress, '○': StepPending}[r]
			if st == "" {
				t.Fatalf("bad step mark %q", r)
			}
			ts.Steps = append(ts.Steps, StepState{ID: fmt.Sprintf("S%d", i+1), Status: st})
		}
		s.Tasks = append(s.Tasks, ts)
	}
	return s
}

// String writes a state back in the notation state reads.
func (s *State) String() string {
	var parts []string
	for _, t := range s.Tasks {
		marks := ""
		for _, st := range t.Steps {
			marks += map[StepStatus]string{StepComplete: "✓", StepInProgress: "→", StepPending: "○"}[st.Status]
		}
		parts = append(parts, t.ID+" "+string(t.Status)+" "+marks)
	}
	return strings.Join(parts, "; ")
}

func mark(t *testing.T, text string) tally.Marker {
	t.Helper()
	ms := marker.Scan([]byte("progress: " + text))
	if len(ms) != 1 {
		t.Fatalf("%q is not one marker", text)
	}
	return ms[0]
}

// entryText writes an entry as "type task step" for comparing.
func entryText(e Entry) string {
	return strings.Join(strings.Fields(fmt.Sprintf("%s %s %s", e.Type, e.Task, e.Step)), " ")
}

// TestDecide is the marker rule table, one row per rule: the plan before,
// the marker, and the plan after with the ledger entries written — or the
// verdict and reason when nothing changes.
func TestDecide(t *testing.T) {
	tests := []struct {
		name    string
		before  string
		marker  string
		verdict Verdict
		after   string   // "" when the plan must not change
		entries []string // "type task step"
		reason  string   // for a verdict other than Applied
	}{
		// The lifecycle: planned → active → complete, step by step.
		{name: "start activates the task and its first step",
			before: "T001 planned ○○○; T002 planned ○○", marker: "T001 start", verdict: Applied,
			after: "T001 active →○○; T002 planned ○○", entries: []string{"task_activated T001"}},
		{name: "done completes the step and activates the next",
			before: "T001 active →○○", marker: "T001.S1 done", verdict: Applied,
			after: "T001 active ✓→○", entries: []string{"step_completed T001 S1"}},
		{name: "the last step completes the task and activates the next planned task",
			before: "T001 active ✓✓→; T002 planned ○○", marker: "T001.S3 done", verdict: Applied,
			after: "T001 complete ✓✓✓; T002 active →○", entries: []string{"task_completed T001 S3", "task_activated T002"}},
		{name: "the next planned task is the first by id, past complete ones",
			before: "T001 active ✓→; T002 complete ✓✓; T003 planned ○○; T004 planned ○○", marker: "T001.S2 done", verdict: Applied,
			after: "T001 complete ✓✓; T002 complete ✓✓; T003 active →○; T004 planned ○○", entries: []string{"task_completed T001 S2", "task_activated T003"}},
		// One task is active at a time (issue 21: completing T005 started
		// T006 while T002 and T004 were active).
		{name: "a task completed while another is active starts no third: the focus goes to the active one",
			before: "T001 active ✓→; T002 complete ✓✓; T003 active →○; T004 planned ○○; T005 planned ○○", marker: "T001.S2 done", verdict: Applied,
			after: "T001 complete ✓✓; T002 complete ✓✓; T003 active →○; T004 planned ○○; T005 planned ○○", entries: []string{"task_completed T001 S2"}},
		{name: "starting a task while another is active pauses the other, its work kept",
			before: "T001 active ✓→○; T002 planned ○○", marker: "T002 start", verdict: Applied,
			after: "T001 planned ✓→○; T002 active →○", entries: []string{"task_paused T001", "task_activated T002"}},
		{name: "a step done of a planned task while another is active pauses the other",
			before: "T001 active →○; T002 planned ○○", marker: "T002.S1 done", verdict: Applied,
			after: "T001 planned →○; T002 active ✓→", entries: []string{"task_paused T001", "task_activated T002", "step_completed T002 S1"}},
		{name: "the last step of a planned task done while another is active completes it; the other keeps the focus",
			before: "T001 active →○; T002 planned ✓→", marker: "T002.S2 done", verdict: Applied,
			after: "T001 active →○; T002 complete ✓✓", entries: []string{"task_activated T002", "task_completed T002 S2"}},
		{name: "a paused task is taken up again before one not begun",
			before: "T001 complete ✓✓; T002 planned ○○; T003 planned ✓→; T004 active ✓→", marker: "T004.S2 done", verdict: Applied,
			after: "T001 complete ✓✓; T002 planned ○○; T003 active ✓→; T004 complete ✓✓", entries: []string{"task_completed T004 S2", "task_activated T003"}},
		{name: "the last step of the last task completes the plan",
			before: "T001 complete ✓✓; T002 active ✓→", marker: "T002.S2 done", verdict: Applied,
			after: "T001 complete ✓✓; T002 complete ✓✓", entries: []string{"task_completed T002 S2", "all_complete"}},
		{name: "the last task done while another is active does not complete the plan",
			before: "T001 active →○; T002 active ✓→", marker: "T002.S2 done", verdict: Applied,
			after: "T001 active →○; T002 complete ✓✓", entries: []string{"task_completed T002 S2"}},
		{name: "done on a step of a planned task activates the task first",
			before: "T001 planned ○○○", marker: "T001.S1 done", verdict: Applied,
			after: "T001 active ✓→○", entries: []string{"task_activated T001", "step_completed T001 S1"}},
		{name: "done on a later step leaves the current step current",
			before: "T001 active →○○", marker: "T001.S2 done", verdict: Applied,
			after: "T001 active →✓○", entries: []string{"step_completed T001 S2"}},
		{name: "start on an active task whose current step is pending starts that step",
			before: "T001 active ✓○", marker: "T001 start", verdict: Applied,
			after: "T001 active ✓→", entries: []string{"step_started T001 S2"}},
		{name: "start of a promoted task begins at its first step not complete",
			before: "T001 planned ✓○○", marker: "T001 start", verdict: Applied,
			after: "T001 active ✓→○", entries: []string{"task_activated T001"}},
		{name: "start naming the current step of a planned task activates the task",
			before: "T001 planned ○○", marker: "T001.S1 start", verdict: Applied,
			after: "T001 active →○", entries: []string{"task_activated T001"}},

		// Blocked is a notice: the ledger has it, the statuses stay.
		{name: "blocked is a notice and the step stays in progress",
			before: "T001 active ✓→○", marker: "T001.S2 blocked: waiting for API key", verdict: Applied,
			after: "T001 active ✓→○", entries: []string{"step_blocked T001 S2"}},
		{name: "blocked without a step means the current step",
			before: "T001 active ✓→○", marker: "T001 blocked: disk full", verdict: Applied,
			after: "T001 active ✓→○", entries: []string{"step_blocked T001 S2"}},
		{name: "a blocked step is completed by done, no unblock needed",
			before: "T001 active ✓→○", marker: "T001.S2 done", verdict: Applied,
			after: "T001 active ✓✓→", entries: []string{"step_completed T001 S2"}},

		// Promotion: the agent wrote the file with the work done so far.
		{name: "promoted records the promotion and keeps the statuses the agent wrote",
			before: "T001 active ✓→○", marker: "T001 promoted", verdict: Applied,
			after: "T001 active ✓→○", entries: []string{"task_promoted T001"}},

		// Markers that would do nothing.
		{name: "start on an active task changes nothing", before: "T001 active →○", marker: "T001 start",
			verdict: Unchanged, reason: "T001 is already active"},
		{name: "start naming the step in progress changes nothing", before: "T001 active ✓→", marker: "T001.S2 start",
			verdict: Unchanged, reason: "T001.S2 is already in progress"},

		// Markers that are refused, never applied.
		{name: "an unknown task is rejected", before: "T001 active →○", marker: "T009 start",
			verdict: Rejected, reason: "no task T009 in the plan"},
		{name: "an unknown step is rejected", before: "T001 active →○", marker: "T001.S9 done",
			verdict: Rejected, reason: "T001 has no step S9"},
		{name: "done on a complete step is rejected, not applied again", before: "T001 active ✓→", marker: "T001.S1 done",
			verdict: Rejected, reason: "T001.S1 is already complete"},
		{name: "start on a complete task is rejected, it would move it backwards", before: "T001 complete ✓✓", marker: "T001 start",
			verdict: Rejected, reason: "T001 is already complete"},
		{name: "start naming a complete step is rejected", before: "T001 active ✓→", marker: "T001.S1 start",
			verdict: Rejected, reason: "T001.S1 is already complete"},
		{name: "start naming a step past the current one is rejected", before: "T001 active →○○", marker: "T001.S3 start",
			verdict: Rejected, reason: "T001.S3 is not the current step (S1 is)"},
		{name: "done without a step is rejected", before: "T001 active →○", marker: "T001 done",
			verdict: Rejected, reason: "done names a step: progress: T001.S1 done"},
		{name: "blocked on a complete step is rejected", before: "T001 active ✓→", marker: "T001.S1 blocked: no",
			verdict: Rejected, reason: "T001.S1 is already complete"},
		{name: "blocked on a complete task is rejected", before: "T001 complete ✓✓", marker: "T001 blocked",
			verdict: Rejected, reason: "T001 is already complete"},
		{name: "promoted naming a step is rejected", before: "T001 active →○", marker: "T001.S1 promoted",
			verdict: Rejected, reason: "promoted names a task, not a step: progress: T001 promoted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state(t, tt.before)
			d := Decide(s, mark(t, tt.marker))
			if d.Verdict != tt.verdict {
				t.Fatalf("verdict %v (%s), want %v", d.Verdict, d.Reason, tt.verdict)
			}
			if before := s.String(); before != state(t, tt.before).String() {
				t.Fatalf("Decide changed the state it was given: %s", before)
			}
			s.Apply(d)
			want := tt.after
			if want == "" {
				want = tt.before
				if len(d.Changes) > 0 || len(d.Entries) > 0 {
					t.Fatalf("%v marker has changes %v and entries %v", d.Verdict, d.Changes, d.Entries)
				}
			}
			if got := s.String(); got != state(t, want).String() {
				t.Fatalf("after:\n got %s\nwant %s", got, want)
			}
			var entries []string
			for _, e := range d.Entries {
				entries = append(entries, entryText(e))
			}
			if !reflect.DeepEqual(entries, tt.entries) {
				t.Fatalf("entries %q, want %q", entries, tt.entries)
			}
			if tt.verdict != Applied && d.Reason != tt.reason {
				t.Fatalf("reason %q, want %q", d.Reason, tt.reason)
			}
		})
	}
}

func TestDecide_promotedTwiceChangesNothing(t *testing.T) {
	s := state(t, "T001 active ✓→○")
	s.Apply(Decide(s, mark(t, "T001 promoted")))
	if d := Decide(s, mark(t, "T001 promoted")); d.Verdict != Unchanged || d.Reason != "T001 was already promoted" {
		t.Fatalf("second promotion: %v %q", d.Verdict, d.Reason)
	}
}

func TestDecide_invalidTaskIsRejectedWithItsProblem(t *testing.T) {
	s := state(t, "T001 active →○")
	s.Invalid["T002"] = `T002-x/task.yaml:9: step id "S" must be S<number>, like S1`
	d := Decide(s, mark(t, "T002 start"))
	if d.Verdict != Rejected || d.Reason != `T002 cannot be used: T002-x/task.yaml:9: step id "S" must be S<number>, like S1` {
		t.Fatalf("%v %q", d.Verdict, d.Reason)
	}
}

func TestDecide_allCompleteWaitsForInvalidTasks(t *testing.T) {
	s := state(t, "T001 active ✓→")
	s.Invalid["T002"] = "broken"
	d := Decide(s, mark(t, "T001.S2 done"))
	if len(d.Entries) != 1 || d.Entries[0].Type != EntryTaskDone {
		t.Fatalf("entries %v: the plan is not complete while a task file is broken", d.Entries)
	}
}

// Several markers in one message apply in order, each to the plan the
// ones before it left.
func TestDecide_severalMarkersInOrder(t *testing.T) {
	s := state(t, "T001 active →○○; T002 planned ○○")
	text := "S1 and S2 are both done, starting S3.\n\nprogress: T001.S1 done\nprogress: T001.S2 done\n"
	for _, m := range marker.Scan([]byte(text)) {
		d := Decide(s, m)
		if d.Verdict != Applied {
			t.Fatalf("%+v: %v %s", m, d.Verdict, d.Reason)
		}
		s.Apply(d)
	}
	if got := s.String(); got != "T001 active ✓✓→; T002 planned ○○" {
		t.Fatalf("after both: %s", got)
	}
}

// Whatever markers arrive, in whatever order, no applied marker moves a
// step or task backwards (but for an active task paused when another
// starts), a task is complete exactly when its steps are, and at most one
// task is active.
func TestDecide_neverMovesBackwards(t *testing.T) {
	rank := map[StepStatus]int{StepPending: 0, StepInProgress: 1, StepComplete: 2}
	trank := map[TaskStatus]int{TaskPlanned: 0, TaskActive: 1, TaskComplete: 2}
	rapid.Check(t, func(rt *rapid.T) {
		s := &State{Invalid: map[string]string{}, Promoted: map[string]bool{}}
		for i := range rapid.IntRange(1, 4).Draw(rt, "tasks") {
			ts := TaskState{ID: TaskID(i + 1), Status: TaskPlanned}
			for j := range rapid.IntRange(MinSteps, 4).Draw(rt, "steps") {
				ts.Steps = append(ts.Steps, StepState{ID: fmt.Sprintf("S%d", j+1), Status: StepPending})
			}
			s.Tasks = append(s.Tasks, ts)
		}
		for range rapid.IntRange(1, 30).Draw(rt, "markers") {
			m := tally.Marker{
				Task: TaskID(rapid.IntRange(1, 5).Draw(rt, "task")),
				Verb: rapid.SampledFrom([]string{"start", "done", "blocked", "promoted"}).Draw(rt, "verb"),
			}
			if rapid.Bool().Draw(rt, "step?") {
				m.Step = fmt.Sprintf("S%d", rapid.IntRange(1, 5).Draw(rt, "step"))
			}
			before := s.String()
			old := cloneState(s)
			d := Decide(s, m)
			s.Apply(d)
			if d.Verdict != Applied && s.String() != before {
				rt.Fatalf("%v marker %+v changed %s to %s", d.Verdict, m, before, s)
			}
			paused := map[string]bool{}
			for _, e := range d.Entries {
				if e.Type == EntryTaskPaused {
					paused[e.Task] = true
				}
			}
			active := 0
			for i, t := range s.Tasks {
				if t.Status == TaskActive {
					active++
				}
				// The one way back: an active task paused, because
				// another was started (one task is active at a time).
				pause := paused[t.ID] && old.Tasks[i].Status == TaskActive && t.Status == TaskPlanned
				if trank[t.Status] < trank[old.Tasks[i].Status] && !pause {
					rt.Fatalf("%+v moved %s back: %s → %s", m, t.ID, before, s)
				}
				done := 0
				for k, st := range t.Steps {
					if rank[st.Status] < rank[old.Tasks[i].Steps[k].Status] {
						rt.Fatalf("%+v moved %s.%s back: %s → %s", m, t.ID, st.ID, before, s)
					}
					if st.Status == StepComplete {
						done++
					}
				}
				if (t.Status == TaskComplete) != (done == len(t.Steps)) {
					rt.Fatalf("%+v: %s is %s with %d/%d steps: %s", m, t.ID, t.Status, done, len(t.Steps), s)
				}
			}
			if active > 1 {
				rt.Fatalf("%+v left %d tasks active: %s → %s", m, active, before, s)
			}
		}
	})
}

func cloneState(s *State) *State {
	c := &State{}
	for _, t := range s.Tasks {
		t.Steps = append([]StepState(nil), t.Steps...)
		c.Tasks = append(c.Tasks, t)
	}
	return c
}
