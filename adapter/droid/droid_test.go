package droid

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// captured is the Droid 0.225.2 capture tree (see its README).
const captured = "../../testdata/fixtures/captured/droid-0.225.2"

type logFile struct {
	path string
	info tally.FileInfo
}

// logs are every session log of the captures, matched as the indexer
// would, each scenario's factory_home standing for ~/.factory.
func logs(t testing.TB) []logFile {
	t.Helper()
	var out []logFile
	homes, _ := filepath.Glob(captured + "/*/factory_home")
	for _, h := range homes {
		a := New(Options{Home: h})
		root := a.Roots()[0]
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				if fi, ok := a.Match(root, p); ok {
					out = append(out, logFile{p, fi})
				}
			}
			return nil
		})
	}
	if len(out) < 3 {
		t.Fatalf("found %d session logs under %s, want the 3 scenarios'", len(out), captured)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
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
	a := New(Options{})
	for _, f := range logs(t) {
		t.Run(filepath.Base(filepath.Dir(f.path)), func(t *testing.T) {
			adaptertest.Run(t, a, f.info, read(t, f.path))
		})
	}
}

func FuzzDecoder(f *testing.F) {
	var seeds [][]byte
	for _, l := range logs(f) {
		var small []byte
		for _, line := range bytes.SplitAfter(read(f, l.path), []byte("\n")) {
			if len(line) < 1024 {
				seeds = append(seeds, line)
				small = append(small, line...)
			}
		}
		seeds = append(seeds, small)
	}
	adaptertest.Fuzz(f, New(Options{}), tally.FileInfo{Path: "fuzz.jsonl", Session: "s"}, seeds...)
}

// todo is an item in Droid's own words.
type todo struct{ Content, Status string }

// TestList_isDroidsOwnLatestTodoState: on every real capture the list Tally
// shows is the latest todo_state line of the log — the list Droid itself
// reads back when it resumes the session (getLatestTodoState) — item for
// item, and the plan Droid last sent its ACP client says the same.
func TestList_isDroidsOwnLatestTodoState(t *testing.T) {
	sawList := false
	for _, f := range logs(t) {
		data := read(t, f.path)
		var want []todo
		for _, line := range bytes.Split(data, []byte("\n")) {
			var l struct {
				Type  string
				Todos struct{ Todos []todo }
			}
			if json.Unmarshal(line, &l) == nil && l.Type == "todo_state" {
				want = l.Todos.Todos
			}
		}
		st := adaptertest.Fold(t, New(Options{}), f.info, data, 0)
		var got []todo
		if l := st.Lists[""]; l != nil {
			for _, it := range l.Items() {
				got = append(got, todo{it.Title, it.StatusWord()})
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: list %v, Droid's latest todo_state %v", f.path, got, want)
		}
		scenario := strings.TrimSuffix(f.path[len(captured)+1:], "/")
		scenario, _, _ = strings.Cut(scenario, "/")
		if plan, ok := lastACPPlan(t, filepath.Join(captured, scenario, "acp/agent-stdout.jsonl")); ok {
			sawList = true
			if !reflect.DeepEqual(got, plan) {
				t.Errorf("%s: list %v, Droid's last ACP plan %v", scenario, got, plan)
			}
		}
	}
	if !sawList {
		t.Fatal("no capture with an ACP plan read")
	}
}

// lastACPPlan is the entries of the last session/update plan Droid wrote
// to its ACP client; false when the scenario ran without ACP.
func lastACPPlan(t *testing.T, path string) ([]todo, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	var plan []todo
	found := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var m struct {
			Params struct {
				Update struct {
					SessionUpdate string
					Entries       []todo
				}
			}
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Params.Update.SessionUpdate == "plan" {
			plan, found = m.Params.Update.Entries, true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return plan, found
}

func TestDecoder_sessionFacts(t *testing.T) {
	for _, f := range logs(t) {
		st := adaptertest.Fold(t, New(Options{}), f.info, read(t, f.path), 0)
		if !strings.HasPrefix(st.Project, "/tmp/cap2/runs/droid/") || st.Title == "" || !st.TitleWeak {
			t.Errorf("%s: project %q, title %q (weak %v)", f.path, st.Project, st.Title, st.TitleWeak)
		}
		if st.StartedAt.IsZero() || st.LastAt.Before(st.StartedAt) {
			t.Errorf("%s: started %v, last %v", f.path, st.StartedAt, st.LastAt)
		}
		if st.Signal != tally.SignalWaiting {
			t.Errorf("%s: signal %v, want waiting: the turn ended", f.path, st.Signal)
		}
	}
}

func TestDecoder_whoseTurn(t *testing.T) {
	msg := func(role, content string) string {
		return `{"type":"message","id":"m","timestamp":"2026-11-26T08:23:36.131Z","message":{"role":"` + role + `","content":` + content + `}}`
	}
	for _, c := range []struct {
		name, line string
		want       tally.Signal
	}{
		{"a tool call is work", msg("assistant", `[{"type":"text","text":"On it."},{"type":"tool_use","id":"t","name":"Execute","input":{}}]`), tally.SignalWorking},
		{"a reply hands the turn back", msg("assistant", `[{"type":"text","text":"Done."}]`), tally.SignalWaiting},
		{"a question asks", msg("assistant", `[{"type":"text","text":"Which port should it use?"}]`), tally.SignalAsking},
		{"a tool result is work", msg("user", `[{"type":"tool_result","tool_use_id":"t","content":"ok"}]`), tally.SignalWorking},
	} {
		st := adaptertest.Fold(t, New(Options{}), tally.FileInfo{Path: "x.jsonl", Session: "s"}, []byte(c.line+"\n"), 0)
		if st.Signal != c.want {
			t.Errorf("%s: signal %v, want %v", c.name, st.Signal, c.want)
		}
	}
}

func TestAdapter_Match(t *testing.T) {
	a := New(Options{Home: "/h/.factory"})
	root := a.Roots()[0]
	for path, want := range map[string]string{
		root + "/-home-me-api/314d3ff9.jsonl":               "314d3ff9",
		root + "/314d3ff9.jsonl":                            "314d3ff9",
		root + "/btw/5c1e.jsonl":                            "5c1e",
		root + "/-home-me-api/314d3ff9.settings.json":       "",
		root + "/-home-me-api/314d3ff9/attachments/a.jsonl": "",
		"/elsewhere/x.jsonl":                                "",
	} {
		fi, ok := a.Match(root, path)
		if got := fi.Session; ok != (want != "") || got != want {
			t.Errorf("Match(%s) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

// Droid finds its folder as FACTORY_HOME_OVERRIDE || the user's home, then
// .factory (the binary's R()/Fe()).
func TestDescriptor_home(t *testing.T) {
	env := func(vars map[string]string) adapter.Env {
		return adapter.Env{Getenv: func(k string) string { return vars[k] }, Home: "/home/me"}
	}
	if got := Descriptor.Dirs(env(nil), nil).Get(""); got != "/home/me/.factory" {
		t.Errorf("home %q", got)
	}
	if got := Descriptor.Dirs(env(map[string]string{"FACTORY_HOME_OVERRIDE": "/o"}), nil).Get(""); got != "/o/.factory" {
		t.Errorf("home with FACTORY_HOME_OVERRIDE %q", got)
	}
}
