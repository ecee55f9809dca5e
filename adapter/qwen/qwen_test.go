package qwen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// captured is a real Qwen Code 0.24.4 run: see
// testdata/fixtures/captured/qwen-code-0.24.4.
const captured = "../../testdata/fixtures/captured/qwen-code-0.24.4/"

// storedList is a todo file as Qwen wrote it, read with encoding/json.
func storedList(t *testing.T, path string) []tally.Item {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Todos []struct {
			ID, Content, Status string
			BlockedBy           []string
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := []tally.Item{}
	for _, td := range f.Todos {
		st, _ := tally.ParseStatus(td.Status)
		out = append(out, tally.Item{ID: td.ID, Title: td.Content, Status: st, BlockedBy: td.BlockedBy, Source: tally.SourceTodo})
	}
	return out
}

// whole folds a todo file as the reader does: the document given whole.
func whole(t *testing.T, a *Adapter, fi tally.FileInfo, data []byte) *tally.FileState {
	t.Helper()
	dec, err := a.NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: fi.Path, Agent: Agent, Session: fi.Session}
	if _, diags := st.FeedWhole(dec, data); len(diags) > 0 {
		t.Fatalf("%s: %v", fi.Path, diags)
	}
	return st
}

func list(st *tally.FileState) []tally.Item {
	if l := st.Lists[""]; l != nil {
		return l.Items()
	}
	return nil
}

// TestCaptured_theListTallyShowsIsTheTodoFileQwenWrote: the final todo
// file and every copy of it taken between the model's turns read as the
// list Qwen stored; the chat record gives the session's facts and one
// runtime call per function call, and no list of its own.
func TestCaptured_theListTallyShowsIsTheTodoFileQwenWrote(t *testing.T) {
	files, _ := filepath.Glob(captured + "*/qwen_home/todos/*.json")
	snaps, _ := filepath.Glob(captured + "*/harness/snapshots/*/todos/*.json")
	if len(files) == 0 || len(snaps) == 0 {
		t.Fatal("no captured todo files")
	}
	for _, path := range append(files, snaps...) {
		root := filepath.Dir(filepath.Dir(path))
		a := New(Options{Runtime: root})
		fi, ok := a.Match(root, path)
		if !ok || fi.Layout != tally.LayoutWhole {
			t.Fatalf("%s: matched as %+v", path, fi)
		}
		data, _ := os.ReadFile(path)
		st := whole(t, a, fi, data)
		if got, want := list(st), storedList(t, path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", path, got, want)
		}
	}
	for _, path := range files {
		home := filepath.Dir(filepath.Dir(path))
		a := New(Options{Runtime: home})
		chats, _ := filepath.Glob(filepath.Join(home, projectsDir, "*", chatsDir, "*.jsonl"))
		if len(chats) != 1 {
			t.Fatalf("chats %v", chats)
		}
		ci, ok := a.Match(home, chats[0])
		ti, _ := a.Match(home, path)
		if !ok || ci.Session != ti.Session {
			t.Fatalf("chat %+v and todo file %+v are not one session", ci, ti)
		}
		data, _ := os.ReadFile(chats[0])
		chat := adaptertest.Fold(t, a, ci, data, 0)
		if chat.Lists[""] != nil {
			t.Error("the chat record made a list of its own: the todo file is the list")
		}
		todo, _ := os.ReadFile(path)
		rec := tally.Merge([]*tally.FileState{chat, whole(t, a, ti, todo)})
		s := rec.Session(time.Now())
		calls := strings.Count(string(data), `"functionCall":`)
		if s.Runtime == nil || s.Runtime.Calls != calls || s.Runtime.Running != 0 || s.Runtime.Failed != 0 {
			t.Errorf("runtime %+v, want the record's %d calls, all done", s.Runtime, calls)
		}
		if s.Project != "/tmp/cap/runs-qwen/todos/work" || !strings.HasPrefix(s.Title, "Write hello.txt") || rec.Signal != tally.SignalWaiting || len(s.Items) != 3 {
			t.Errorf("project %q title %q signal %v items %d", s.Project, s.Title, rec.Signal, len(s.Items))
		}
	}
}

func TestCaptured_theChatRecordPassesTheAdapterSuite(t *testing.T) {
	chats, _ := filepath.Glob(captured + "*/qwen_home/" + projectsDir + "/*/" + chatsDir + "/*.jsonl")
	for _, path := range chats {
		home := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(path))))
		a := New(Options{Runtime: home})
		fi, _ := a.Match(home, path)
		data, _ := os.ReadFile(path)
		adaptertest.Run(t, a, fi, data)
	}
}

// TestTodoFile_blockedByAndAClearedList: blockedBy is each item's
// blockers, an item blocked by an open one is blocked, and [] clears.
func TestTodoFile_blockedByAndAClearedList(t *testing.T) {
	a := New(Options{Runtime: "/r"})
	fi := tally.FileInfo{Path: "/r/todos/s.json", Session: "s", Layout: tally.LayoutWhole}
	st := whole(t, a, fi, []byte(`{"planId":"p","todos":[{"id":"a","content":"Read","status":"in_progress"},{"id":"b","content":"Write","status":"pending","blockedBy":["a"]}],"sessionId":"s"}`))
	rec := tally.Merge([]*tally.FileState{st})
	s := rec.Session(time.Now())
	if len(s.Items) != 2 || !s.Items[1].Blocked || !reflect.DeepEqual(s.Items[1].BlockedBy, []string{"a"}) {
		t.Errorf("items %+v", s.Items)
	}
	st = whole(t, a, fi, []byte(`{"todos":[],"sessionId":"s"}`))
	if l := st.Lists[""]; l == nil || l.Len() != 0 {
		t.Errorf("a cleared list: %+v", l)
	}
}

func TestAdapter_MatchAndSkipDir(t *testing.T) {
	a := New(Options{Runtime: "/r"})
	for p, want := range map[string]tally.FileInfo{
		"/r/todos/s1.json":                          {Path: "/r/todos/s1.json", Session: "s1", Layout: tally.LayoutWhole},
		"/r/projects/-w/chats/s1.jsonl":             {Path: "/r/projects/-w/chats/s1.jsonl", Session: "s1", Layout: tally.LayoutLog},
		"/r/todos/default.json":                     {},
		"/r/settings.json":                          {},
		"/r/projects/-w/subagents/s1/agent-x.jsonl": {},
		"/r/usage_record.jsonl":                     {},
	} {
		got, ok := a.Match("/r", p)
		if ok != (want.Path != "") || got != want {
			t.Errorf("Match(%s) = %+v, %v", p, got, ok)
		}
	}
	for d, want := range map[string]bool{"/r/todos": false, "/r/projects": false, "/r/projects/-w": false, "/r/projects/-w/chats": false,
		"/r/projects/-w/subagents": true, "/r/tmp": true, "/r/debug": true} {
		if got := a.SkipDir("/r", d); got != want {
			t.Errorf("SkipDir(%s) = %v", d, got)
		}
	}
}

// TestDescriptor_theRuntimeDirectoryIsFoundAsQwenFindsIt:
// QWEN_RUNTIME_DIR, else the settings' advanced.runtimeOutputDir (~
// expanded; the settings may hold comments), else QWEN_HOME, else ~/.qwen.
func TestDescriptor_theRuntimeDirectoryIsFoundAsQwenFindsIt(t *testing.T) {
	home := t.TempDir()
	qhome := filepath.Join(home, "q")
	if err := os.MkdirAll(qhome, 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(vars map[string]string) adapter.Env {
		return adapter.Env{Home: home, Dir: "/w", Getenv: func(k string) string { return vars[k] }}
	}
	if got := Descriptor.Dirs(env(nil), nil).Get(""); got != filepath.Join(home, ".qwen") {
		t.Errorf("default %s", got)
	}
	if got := Descriptor.Dirs(env(map[string]string{"QWEN_HOME": qhome}), nil).Get(""); got != qhome {
		t.Errorf("QWEN_HOME: %s", got)
	}
	if err := os.WriteFile(filepath.Join(qhome, "settings.json"), []byte("{\n // where runs go\n \"advanced\": {\"runtimeOutputDir\": \"~/runs\"}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Descriptor.Dirs(env(map[string]string{"QWEN_HOME": qhome}), nil).Get(""); got != filepath.Join(home, "runs") {
		t.Errorf("the settings' runtimeOutputDir: %s", got)
	}
	if got := Descriptor.Dirs(env(map[string]string{"QWEN_HOME": qhome, "QWEN_RUNTIME_DIR": "/rt"}), nil).Get(""); got != "/rt" {
		t.Errorf("QWEN_RUNTIME_DIR: %s", got)
	}
}

func FuzzDecoders(f *testing.F) {
	chats, _ := filepath.Glob(captured + "todos/qwen_home/" + projectsDir + "/*/" + chatsDir + "/*.jsonl")
	var seeds [][]byte
	for _, c := range chats {
		if b, err := os.ReadFile(c); err == nil {
			seeds = append(seeds, b)
		}
	}
	seeds = append(seeds, []byte(`{"type":"tool_result","toolCallResult":{"callId":"x","status":"error"}}`))
	adaptertest.Fuzz(f, New(Options{Runtime: f.TempDir()}), tally.FileInfo{Path: "c.jsonl", Session: "fuzz"}, seeds...)
}

func FuzzTodoFile(f *testing.F) {
	f.Add([]byte(`{"todos":[{"id":"1","content":"a","status":"in_progress","blockedBy":["2"]}],"sessionId":"s"}`))
	f.Add([]byte(`{"todos":7}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &todoDecoder{}
		_ = d.Line(b, 0, func(tally.Event) {})
	})
}
