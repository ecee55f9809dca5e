package openhands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

const (
	root = "testdata/conversations"
	conv = "0f3c9a7e2b8d4c1e9a6f5b4d3c2e1a09"
)

func fold(t testing.TB, name string) *tally.FileState {
	t.Helper()
	a := New(Options{Dir: root})
	fi, ok := a.Match(root, filepath.Join(root, conv, name))
	if !ok || fi.Session != conv || fi.Layout != tally.LayoutWhole {
		t.Fatalf("Match(%s) = %+v, %v", name, fi, ok)
	}
	data, err := os.ReadFile(fi.Path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := a.NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: fi.Path, Agent: Agent, Session: fi.Session}
	if _, diags := st.FeedWhole(dec, data); len(diags) > 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	return st
}

type task struct{ Title, Notes, Status string }

// TestList_isTheTrackersOwnFile: the list is TASKS.json, which the
// task_tracker writes whole on every plan and reads back on resume.
func TestList_isTheTrackersOwnFile(t *testing.T) {
	st := fold(t, tasksFile)
	var saved []task
	data, _ := os.ReadFile(filepath.Join(root, conv, tasksFile))
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	words := map[string]string{"todo": "pending", "in_progress": "in_progress", "done": "completed"}
	var want, got []task
	for _, s := range saved {
		want = append(want, task{s.Title, s.Notes, words[s.Status]})
	}
	for _, it := range st.Lists[""].Items() {
		got = append(got, task{it.Title, it.Description, it.StatusWord()})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("list %v\nwant %v", got, want)
	}
	if st.LastAt.IsZero() {
		t.Error("the list has no time: the file's was not read")
	}
}

func TestState_folderAndTurn(t *testing.T) {
	st := fold(t, stateFile)
	if st.Project != "/home/dev/api" || st.Signal != tally.SignalWorking {
		t.Errorf("project %q, signal %v", st.Project, st.Signal)
	}
	dec, _ := New(Options{}).NewDecoder(tally.FileInfo{Path: stateFile, Layout: tally.LayoutWhole}, nil)
	for status, want := range map[string]tally.Signal{"waiting_for_confirmation": tally.SignalAsking, "finished": tally.SignalWaiting, "running": tally.SignalWorking} {
		var got tally.Signal
		_ = dec.Line([]byte(`{"execution_status":"`+status+`"}`), 0, func(ev tally.Event) { got = ev.Meta.Signal })
		if got != want {
			t.Errorf("%s: signal %v, want %v", status, got, want)
		}
	}
}

func FuzzDecoders(f *testing.F) {
	for _, n := range []string{tasksFile, stateFile} {
		data, err := os.ReadFile(filepath.Join(root, conv, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(n == stateFile, data)
	}
	f.Add(false, []byte(`[{"title":1,"status":null}]`))
	a := New(Options{})
	f.Fuzz(func(t *testing.T, state bool, data []byte) {
		name := tasksFile
		if state {
			name = stateFile
		}
		dec, err := a.NewDecoder(tally.FileInfo{Path: name, Layout: tally.LayoutWhole}, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := &tally.FileState{Path: name, Agent: Agent, Session: "s"}
		st.FeedWhole(dec, data)
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAdapter_MatchAndSkip(t *testing.T) {
	a := New(Options{Dir: "/c"})
	for path, want := range map[string]bool{
		"/c/abc/TASKS.json": true, "/c/abc/base_state.json": true, "/c/abc/events/event-00000-x.json": false,
		"/c/TASKS.json": false, "/c/abc/TASKS.md": false,
	} {
		if _, ok := a.Match("/c", path); ok != want {
			t.Errorf("Match(%s) = %v, want %v", path, ok, want)
		}
	}
	if a.SkipDir("/c", "/c/abc") || !a.SkipDir("/c", "/c/abc/events") {
		t.Error("SkipDir walks events/, or not the conversations")
	}
}

func TestDescriptor_home(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{nil, "/home/me/.openhands/conversations"},
		{map[string]string{"OPENHANDS_PERSISTENCE_DIR": "/p"}, "/p/conversations"},
		{map[string]string{"OPENHANDS_PERSISTENCE_DIR": "/p", "OPENHANDS_CONVERSATIONS_DIR": "/c"}, "/c"},
	} {
		env := adapter.Env{Getenv: func(k string) string { return c.vars[k] }, Home: "/home/me"}
		if got := Descriptor.Dirs(env, nil).Get(""); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}
}
