package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// taskFile is Claude Code's own task file, config/tasks/<sid>/<id>.json.
type taskFile struct {
	ID          string   `json:"id"`
	Subject     string   `json:"subject"`
	Description string   `json:"description"`
	ActiveForm  string   `json:"activeForm"`
	Status      string   `json:"status"`
	Owner       string   `json:"owner"`
	Blocks      []string `json:"blocks"`
	BlockedBy   []string `json:"blockedBy"`
}

// taskView is what a task file and a folded task can both say.
type taskView struct {
	ID, Title, Description, ActiveForm, Status, Owner string
	Blocks, BlockedBy                                 string
}

func viewOfFile(f taskFile) taskView {
	return taskView{f.ID, f.Subject, f.Description, f.ActiveForm, f.Status, f.Owner, fmt.Sprint(sorted(f.Blocks)), fmt.Sprint(sorted(f.BlockedBy))}
}

func viewOfItem(it tally.Item) taskView {
	return taskView{it.ID, it.Title, it.Description, it.ActiveForm, it.StatusWord(), it.Owner, fmt.Sprint(sorted(it.Blocks)), fmt.Sprint(sorted(it.BlockedBy))}
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func readTaskDir(t *testing.T, dir string) []taskView {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []taskView
	for _, p := range paths {
		var f taskFile
		if err := json.Unmarshal(read(t, p), &f); err != nil {
			t.Fatal(err)
		}
		out = append(out, viewOfFile(f))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func taskViews(items []tally.Item, fields func(*taskView)) []taskView {
	var out []taskView
	for _, it := range items {
		if it.Source != tally.SourceTask {
			continue
		}
		v := viewOfItem(it)
		if fields != nil {
			fields(&v)
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// onlyListed keeps the fields a TaskList snapshot states.
func onlyListed(v *taskView) { v.Description, v.ActiveForm, v.Blocks = "", "", "" }

// TestDecoder_TaskScenarios folds Claude Code 2.1.330's Task captures and
// compares the main list with the agent's own task files (at exit, and the
// harness's copies taken before each model request) and with every
// TaskList result at the point it appears.
func TestDecoder_TaskScenarios(t *testing.T) {
	for _, sc := range []string{"tasks", "tasks-partial", "tasks-subagent"} {
		t.Run(sc, func(t *testing.T) {
			dir := filepath.Join(captured, sc)
			mains, _ := filepath.Glob(filepath.Join(dir, "config/projects/*/*.jsonl"))
			if len(mains) != 1 {
				t.Fatalf("want one transcript, got %v", mains)
			}
			sid := filepath.Base(mains[0])
			sid = sid[:len(sid)-len(".jsonl")]
			atExit := readTaskDir(t, filepath.Join(dir, "config/tasks", sid))
			for _, p := range []string{mains[0], filepath.Join(dir, "stream-json.stdout.jsonl")} {
				fo := newFolder(t, tally.FileInfo{Path: p, Session: sid})
				requests, lists := 0, 0
				for _, l := range adaptertest.Lines(read(t, p)) {
					var env rawLine
					_ = json.Unmarshal(l, &env)
					if env.Type == "api-request" && sc != "tasks-subagent" {
						// The harness copied the task folder just before
						// answering request number `requests`.
						requests++
						snap := filepath.Join(dir, "harness/snapshots", fmt.Sprintf("%03d", requests), "tasks", sid)
						want := []taskView(nil)
						if _, err := os.Stat(snap); err == nil {
							want = readTaskDir(t, snap)
						}
						if got := taskViews(fo.List(""), nil); !reflect.DeepEqual(got, want) {
							t.Errorf("%s: before request %d\n got %+v\nwant %+v", filepath.Base(p), requests, got, want)
						}
					}
					fo.Feed(l)
					var r struct{ Tasks *[]taskFile }
					if env.Type == "user" && json.Unmarshal(env.result(), &r) == nil && r.Tasks != nil {
						lists++
						var want []taskView
						for _, f := range *r.Tasks {
							want = append(want, viewOfFile(f))
						}
						for i := range want {
							onlyListed(&want[i])
						}
						sort.Slice(want, func(i, j int) bool { return want[i].ID < want[j].ID })
						if got := taskViews(fo.List(""), onlyListed); !reflect.DeepEqual(got, want) {
							t.Errorf("%s: after TaskList result %d\n got %+v\nwant %+v", filepath.Base(p), lists, got, want)
						}
					}
				}
				if lists == 0 {
					t.Errorf("%s: no TaskList result seen", p)
				}
				final := taskViews(fo.List(""), nil)
				want := atExit
				if sc == "tasks-subagent" {
					// Task 3 was created by the sub-agent: the main
					// transcript knows it only from TaskList, which does
					// not carry description or activeForm.
					want = append([]taskView(nil), atExit...)
					for i := range want {
						if want[i].ID == "3" {
							want[i].Description, want[i].ActiveForm = "", ""
						}
					}
				}
				if !reflect.DeepEqual(final, want) {
					t.Errorf("%s: final list\n got %+v\nwant (task files at exit) %+v", filepath.Base(p), final, want)
				}
				for _, v := range final {
					if v.ID == "2" && sc != "tasks-subagent" {
						t.Errorf("%s: deleted task 2 is still listed (as %s): deleted is removed, not completed", filepath.Base(p), v.Status)
					}
				}
				t.Logf("%s: %d snapshots, %d TaskList results checked", filepath.Base(p), requests, lists)
			}
		})
	}
}

// TestDecoder_SubagentTaskFile checks the sub-agent's own transcript: its
// list holds the task it created, as the task file at exit says (the file
// has no toolUseResult: the id comes from the result text).
func TestDecoder_SubagentTaskFile(t *testing.T) {
	dir := filepath.Join(captured, "tasks-subagent")
	subs, _ := filepath.Glob(filepath.Join(dir, "config/projects/*/*/subagents/agent-*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("want one sub-agent transcript, got %v", subs)
	}
	root := filepath.Join(dir, "config/projects")
	fi, ok := New(Options{}).Match(root, subs[0])
	if !ok {
		t.Fatalf("Match refused %s", subs[0])
	}
	data := read(t, subs[0])
	if bytes.Contains(data, []byte(`"toolUseResult":{`)) {
		t.Fatal("fixture changed: sub-agent file now has toolUseResult objects")
	}
	st := foldAll(t, fi, data)
	var want []taskView
	for _, v := range readTaskDir(t, filepath.Join(dir, "config/tasks", fi.Session)) {
		if v.Owner == "subagent" {
			want = append(want, v)
		}
	}
	if got := taskViews(st.Lists[fi.List].Items(), nil); !reflect.DeepEqual(got, want) {
		t.Errorf("sub-agent list %q\n got %+v\nwant %+v", fi.List, got, want)
	}
}
