package roo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

const (
	storage = "testdata"
	task    = "3f6d2b1a-7c4e-4e8f-9b2d-1a5c8e7f6d40"
)

func fold(t testing.TB, data []byte) *tally.FileState {
	t.Helper()
	a := New(Options{Dir: storage})
	root := a.Roots()[0]
	fi, ok := a.Match(root, filepath.Join(root, task, messagesFile))
	if !ok || fi.Session != task || fi.Layout != tally.LayoutWhole {
		t.Fatalf("Match: %+v %v", fi, ok)
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

func messages(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(storage, "tasks", task, messagesFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type todo struct{ ID, Content, Status string }

// TestList_isWhatRooCodeShows: the list is the todos of the newest
// updateTodoList message, a tool's or the user's own edit, as Roo Code's
// getLatestTodo finds it — computed here from the file the same way.
func TestList_isWhatRooCodeShows(t *testing.T) {
	data := messages(t)
	var msgs []message
	if err := json.Unmarshal(data, &msgs); err != nil {
		t.Fatal(err)
	}
	var want []todo
	for _, m := range msgs {
		if m.Type == "ask" && m.Ask == "tool" || m.Type == "say" && m.Say == "user_edit_todos" {
			var p struct {
				Tool  string
				Todos []todo
			}
			if json.Unmarshal([]byte(m.Text), &p) == nil && p.Tool == "updateTodoList" && p.Todos != nil {
				want = p.Todos
			}
		}
	}
	st := fold(t, data)
	var got []todo
	for _, it := range st.Lists[""].Items() {
		got = append(got, todo{it.ID, it.Title, it.StatusWord()})
	}
	if len(want) != 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("list %v\nwant %v", got, want)
	}
	if st.Title != "Add a /health endpoint to the API and test it" || !st.TitleWeak || st.Signal != tally.SignalWaiting {
		t.Errorf("title %q (weak %v), signal %v", st.Title, st.TitleWeak, st.Signal)
	}
	if want := time.UnixMilli(1795680000000).UTC(); !st.StartedAt.Equal(want) {
		t.Errorf("started %v, want %v", st.StartedAt, want)
	}
}

func TestDecoder_aQuestionAsks(t *testing.T) {
	st := fold(t, []byte(`[{"ts":1795680000000,"type":"say","say":"text","text":"Go"},{"ts":1795680001000,"type":"ask","ask":"followup","text":"Which port?"}]`))
	if st.Signal != tally.SignalAsking {
		t.Errorf("signal %v, want asking", st.Signal)
	}
	st = fold(t, []byte(`[{"ts":1795680000000,"type":"say","say":"text","text":"Go"},{"ts":1795680001000,"type":"say","say":"api_req_started"}]`))
	if st.Signal != tally.SignalWorking {
		t.Errorf("signal %v, want working", st.Signal)
	}
}

func FuzzDecoder(f *testing.F) {
	f.Add(messages(f))
	f.Add([]byte(`[{"type":"ask","ask":"tool","text":"{\"tool\":\"updateTodoList\",\"todos\":[{\"id\":1}]}"}]`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := &tally.FileState{Path: "ui_messages.json", Agent: Agent, Session: "s"}
		dec, _ := New(Options{}).NewDecoder(tally.FileInfo{Layout: tally.LayoutWhole}, nil)
		st.FeedWhole(dec, data)
		if _, err := json.Marshal(st); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAdapter_MatchAndSkip(t *testing.T) {
	a := New(Options{Dir: "/s"})
	root := a.Roots()[0]
	for path, want := range map[string]bool{
		root + "/t1/ui_messages.json": true, root + "/t1/api_conversation_history.json": false,
		root + "/t1/checkpoints/ui_messages.json": false, root + "/ui_messages.json": false,
	} {
		if _, ok := a.Match(root, path); ok != want {
			t.Errorf("Match(%s) = %v, want %v", path, ok, want)
		}
	}
	if a.SkipDir(root, root+"/t1") || !a.SkipDir(root, root+"/t1/checkpoints") {
		t.Error("SkipDir")
	}
}

func TestDescriptor_home(t *testing.T) {
	env := func(vars map[string]string) adapter.Env {
		return adapter.Env{Getenv: func(k string) string { return vars[k] }, Home: "/home/me"}
	}
	if got := Descriptor.Dirs(env(nil), nil).Get(""); got != "/home/me/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline" {
		t.Errorf("home %q", got)
	}
	if got := Descriptor.Dirs(env(map[string]string{"XDG_CONFIG_HOME": "/x"}), nil).Get(""); got != "/x/Code/User/globalStorage/rooveterinaryinc.roo-cline" {
		t.Errorf("home with XDG_CONFIG_HOME %q", got)
	}
}
