package kimi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const (
	share   = "testdata/share"
	session = "5b1f0e2a-8c7d-4e55-9a0b-3f2d7c1e9a44"
	folder  = "/home/dev/api"
)

func files(t testing.TB) (a *Adapter, wire, state tally.FileInfo) {
	t.Helper()
	a = New(Options{Home: share})
	root := a.Roots()[0]
	dir := filepath.Join(root, "e4f623c3280339cc0da2a48c752f5607", session)
	var ok bool
	if wire, ok = a.Match(root, filepath.Join(dir, wireFile)); !ok || wire.Layout != tally.LayoutLog {
		t.Fatalf("wire.jsonl: %+v %v", wire, ok)
	}
	if state, ok = a.Match(root, filepath.Join(dir, stateFile)); !ok || state.Layout != tally.LayoutWhole {
		t.Fatalf("state.json: %+v %v", state, ok)
	}
	return a, wire, state
}

func read(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAdapter_Suite(t *testing.T) {
	a, wire, _ := files(t)
	adaptertest.Run(t, a, wire, read(t, wire.Path))
}

func FuzzWire(f *testing.F) {
	a, wire, _ := files(f)
	data := read(f, wire.Path)
	seeds := bytes.SplitAfter(data, []byte("\n"))
	adaptertest.Fuzz(f, a, tally.FileInfo{Path: "fuzz.jsonl", Session: "s"}, append(seeds, data)...)
}

func FuzzState(f *testing.F) {
	a, _, state := files(f)
	f.Add(read(f, state.Path))
	f.Add([]byte(`{"todos":[{"title":1}]}`))
	f.Add([]byte(`{"todos":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dec, err := a.NewDecoder(tally.FileInfo{Path: "state.json", Layout: tally.LayoutWhole}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = dec.Line(data, 0, func(ev tally.Event) {
			if _, err := json.Marshal(ev); err != nil {
				t.Fatal(err)
			}
		})
	})
}

type todo struct{ Title, Status string }

// TestList_isKimisOwnState: the list is state.json's todos, where
// SetTodoList saves the list and from where it reads it back, and the
// last SetTodoList result in wire.jsonl shows the same.
func TestList_isKimisOwnState(t *testing.T) {
	a, wire, state := files(t)
	dec, err := a.NewDecoder(state, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: state.Path, Agent: Agent, Session: state.Session}
	if _, diags := st.FeedWhole(dec, read(t, state.Path)); len(diags) > 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	var got []todo
	for _, it := range st.Lists[""].Items() {
		got = append(got, todo{it.Title, it.StatusWord()})
	}
	var saved struct{ Todos []todo }
	if err := json.Unmarshal(read(t, state.Path), &saved); err != nil {
		t.Fatal(err)
	}
	for i := range saved.Todos {
		if saved.Todos[i].Status == "done" {
			saved.Todos[i].Status = "completed" // Kimi's word for it
		}
	}
	if !reflect.DeepEqual(got, saved.Todos) {
		t.Errorf("list %v, state.json %v", got, saved.Todos)
	}
	last := lastDisplayed(t, wire.Path)
	if len(last) != len(got) {
		t.Fatalf("last SetTodoList result %v, list %v", last, got)
	}
	for i := range last {
		if last[i].Title != got[i].Title {
			t.Errorf("item %d: %q, the last result %q", i, got[i].Title, last[i].Title)
		}
	}
	if st.Title != "Health endpoint" || st.TitleWeak || st.Project != folder {
		t.Errorf("title %q (weak %v), project %q", st.Title, st.TitleWeak, st.Project)
	}
}

func lastDisplayed(t *testing.T, path string) []todo {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last []todo
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			Message struct {
				Type    string
				Payload struct {
					ReturnValue struct {
						Display []struct {
							Type  string
							Items []todo
						}
					} `json:"return_value"`
				}
			}
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Message.Type == "ToolResult" {
			for _, d := range r.Message.Payload.ReturnValue.Display {
				if d.Type == "todo" {
					last = d.Items
				}
			}
		}
	}
	return last
}

func TestWire_timesAndTurns(t *testing.T) {
	a, wire, _ := files(t)
	data := read(t, wire.Path)
	st := adaptertest.Fold(t, a, wire, data, 0)
	if want := time.Unix(1795681200, 250e6).UTC(); !st.StartedAt.Equal(want) {
		t.Errorf("started %v, want %v", st.StartedAt, want)
	}
	if st.Signal != tally.SignalWaiting || st.Title != "Add a /health endpoint and test it" || !st.TitleWeak || st.Project != folder {
		t.Errorf("signal %v, title %q (weak %v), project %q", st.Signal, st.Title, st.TitleWeak, st.Project)
	}
	cut := bytes.Index(data, []byte(`"type": "TurnEnd"`))
	mid := adaptertest.Fold(t, a, wire, data[:bytes.LastIndexByte(data[:cut], '\n')+1], 0)
	if mid.Signal != tally.SignalWorking {
		t.Errorf("signal mid-turn %v, want working", mid.Signal)
	}
	asking := append(data[:len(data):len(data)], []byte(`{"timestamp": 1795681300.0, "message": {"type": "ApprovalRequest", "payload": {"id": "a1"}}}`+"\n")...)
	if st := adaptertest.Fold(t, a, wire, asking, 0); st.Signal != tally.SignalAsking {
		t.Errorf("signal after an approval request %v, want asking", st.Signal)
	}
}

func TestAdapter_Match(t *testing.T) {
	a := New(Options{Home: "/h/.kimi"})
	root := a.Roots()[0]
	for path, want := range map[string]bool{
		root + "/abc/s1/state.json": true, root + "/abc/s1/wire.jsonl": true,
		root + "/abc/s1/context.jsonl": false, root + "/abc/s1/subagents/x/state.json": false, root + "/abc/state.json": false,
	} {
		if _, ok := a.Match(root, path); ok != want {
			t.Errorf("Match(%s) = %v, want %v", path, ok, want)
		}
	}
}

func TestDescriptor_home(t *testing.T) {
	env := func(vars map[string]string) adapter.Env {
		return adapter.Env{Getenv: func(k string) string { return vars[k] }, Home: "/home/me"}
	}
	if got := Descriptor.Dirs(env(nil), nil).Get(""); got != "/home/me/.kimi" {
		t.Errorf("home %q", got)
	}
	if got := Descriptor.Dirs(env(map[string]string{"KIMI_SHARE_DIR": "/k"}), nil).Get(""); got != "/k" {
		t.Errorf("home with KIMI_SHARE_DIR %q", got)
	}
}
