package tally

import (
	"testing"
	"time"
)

// TestSession_Step_aSessionWithNoListSaysTheCallItsRuntimeRuns: the
// model's current step first; with none, the call running.
func TestSession_Step_aSessionWithNoListSaysTheCallItsRuntimeRuns(t *testing.T) {
	st := &FileState{Session: "s", Agent: "x"}
	title, active, running := "Run tests", "Running tests", StatusInProgress
	st.Apply(Event{Kind: EventTaskCreate, List: RuntimeList, ToolUseID: "c1", Patch: TaskPatch{ID: "c1", Subject: &title, ActiveForm: &active, Status: &running}})
	rec := Merge([]*FileState{st})
	s := rec.Session(time.Now())
	if label, rt := s.Step(); label != "Running tests" || !rt {
		t.Errorf("step %q (runtime %v), want the running call", label, rt)
	}
	st.Apply(Event{Kind: EventSnapshot, Items: []Item{{Title: "Fix the bug", ActiveForm: "Fixing the bug", Status: StatusInProgress}}})
	rec = Merge([]*FileState{st})
	s = rec.Session(time.Now())
	if label, rt := s.Step(); label != "Fixing the bug" || rt {
		t.Errorf("step %q (runtime %v), want the model's", label, rt)
	}
}

// TestSession_KeptNoList_theRuntimesCallsAreNoList.
func TestSession_KeptNoList_theRuntimesCallsAreNoList(t *testing.T) {
	s := Session{ListTools: ListToolsNone, SubAgents: []SubAgentList{{ID: RuntimeList}}}
	if !s.KeptNoList() {
		t.Error("a session whose only list is the runtime's calls kept a list")
	}
	s.SubAgents = append(s.SubAgents, SubAgentList{ID: "a1"})
	if s.KeptNoList() {
		t.Error("a sub-agent's list is a list kept")
	}
}
