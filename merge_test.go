package tally_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

func at(sec int) time.Time { return time.Date(2026, 11, 23, 18, 0, sec, 0, time.UTC) }

// logState is a transcript's fold: a todo, and task 1 as the log last saw it.
func logState(path, session string, sig tally.Signal, last time.Time) *tally.FileState {
	st := &tally.FileState{Path: path, Session: session, Agent: claude.Agent, Project: "/w", Title: "Build greet", Signal: sig}
	st.Apply(tally.Event{Kind: tally.EventMeta, At: at(0)})
	st.Apply(tally.Event{Kind: tally.EventSnapshot, ToolUseID: "t1", At: at(1), Items: []tally.Item{{Title: "Read the spec", Status: tally.StatusCompleted}}})
	st.Apply(tally.Event{Kind: tally.EventTaskCreate, ToolUseID: "c1", At: at(2), Patch: tally.TaskPatch{ID: "1", Subject: ptr("Write greet.py")}})
	st.Apply(tally.Event{Kind: tally.EventMeta, At: last, Meta: tally.Meta{Signal: sig}})
	return st
}

// dirState is a task directory's fold: tasks 1 (done) and 2 (started by
// another session), its files last written at `last`.
func dirState(session string, last time.Time, writers ...string) *tally.FileState {
	st := &tally.FileState{Path: "/c/tasks/" + session, Session: session, Agent: claude.Agent, Current: true, Writers: writers}
	st.Apply(tally.Event{Kind: tally.EventMeta, At: at(2), Meta: tally.Meta{Title: "Task list " + session, TitleWeak: true}})
	st.Apply(tally.Event{Kind: tally.EventTaskResync, At: last, Items: []tally.Item{
		{ID: "1", Title: "Write greet.py", Status: tally.StatusCompleted, Source: tally.SourceTask},
		{ID: "2", Title: "Add a test", Status: tally.StatusInProgress, Owner: "mate", Source: tally.SourceTask},
	}})
	return st
}

func words(items []tally.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Source.String()+":"+it.Title+"="+it.Status.String())
	}
	return out
}

func TestMerge_TheTaskFilesWinOverTheLogsTasksAndTodosStay(t *testing.T) {
	sub := &tally.FileState{Path: "/p/s/subagents/agent-a1.jsonl", Session: "s", Agent: claude.Agent}
	sub.Apply(tally.Event{Kind: tally.EventTaskCreate, List: "a1", ToolUseID: "c2", At: at(3), Patch: tally.TaskPatch{ID: "2", Subject: ptr("Add a test")}})
	rec := tally.Merge([]*tally.FileState{dirState("s", at(50)), logState("/p/s.jsonl", "s", tally.SignalWaiting, at(40)), sub})
	want := []string{"todo:Read the spec=completed", "task:Write greet.py=completed", "task:Add a test=in_progress"}
	if got := words(rec.Lists[""]); !reflect.DeepEqual(got, want) {
		t.Errorf("main list %v, want %v: the files are the list as it is, the log's copy of task 1 is stale", got, want)
	}
	if _, ok := rec.Lists["a1"]; ok {
		t.Errorf("the sub-agent's task shows twice: in its own list %v and in the files'", words(rec.Lists["a1"]))
	}
	if rec.Shared || rec.TasksIn != "" {
		t.Errorf("a session with its own list is neither a shared list nor using one: %+v", rec)
	}
	// Facts are the session's: its title, and its activity from its log —
	// a task file written later says nothing about whose turn it is.
	if rec.Title != "Build greet" || !rec.LastActivity.Equal(at(40)) || rec.Signal != tally.SignalWaiting || !rec.StartedAt.Equal(at(0)) {
		t.Errorf("facts %q %v %v %v: they come from the log", rec.Title, rec.StartedAt, rec.LastActivity, rec.Signal)
	}
	if rec.Stats.Files != 3 {
		t.Errorf("files %d, want 3", rec.Stats.Files)
	}
}

func TestMerge_AListWithNoLogIsARecordOfItsOwn(t *testing.T) {
	d := dirState("greet-team", at(50), "lead", "mate")
	d.Project = "/w"
	rec := tally.Merge([]*tally.FileState{d})
	if !rec.Shared || rec.ID != "greet-team" || rec.Agent != claude.Agent {
		t.Fatalf("record %+v, want the shared list greet-team", rec)
	}
	if !reflect.DeepEqual(rec.Writers, []string{"lead", "mate"}) {
		t.Errorf("writers %v", rec.Writers)
	}
	if rec.Title != "Task list greet-team" || rec.Project != "/w" || !rec.LastActivity.Equal(at(50)) || !rec.StartedAt.Equal(at(2)) {
		t.Errorf("facts %q %q %v %v: a list with no log takes them from its files", rec.Title, rec.Project, rec.StartedAt, rec.LastActivity)
	}
	if got := words(rec.Lists[""]); len(got) != 2 {
		t.Errorf("list %v", got)
	}
	s := rec.Session(at(60))
	if !s.Shared || !reflect.DeepEqual(s.Writers, rec.Writers) || s.Progress.Total != 2 {
		t.Errorf("session %+v", s)
	}
}

func TestMerge_ASessionUsingAnotherListShowsNoneOfItsTasks(t *testing.T) {
	lg := logState("/p/lead.jsonl", "lead", tally.SignalWorking, at(40))
	lg.TasksIn = "greet-team"
	rec := tally.Merge([]*tally.FileState{lg})
	if rec.TasksIn != "greet-team" {
		t.Fatalf("tasksIn %q", rec.TasksIn)
	}
	if got := words(rec.Lists[""]); !reflect.DeepEqual(got, []string{"todo:Read the spec=completed"}) {
		t.Errorf("list %v: its tasks are shown once, in the shared list", got)
	}
	if s := rec.Session(at(41)); s.TasksIn != "greet-team" || s.Progress.Total != 1 {
		t.Errorf("session %+v", s)
	}
}
