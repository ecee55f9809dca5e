package claude

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// taskListDirs are every task list directory the captures hold: the lists
// at exit, and the harness's copies taken before each model request.
func taskListDirs(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"*/config/tasks/*", "*/harness/snapshots/*/tasks/*"} {
		m, err := filepath.Glob(filepath.Join(captured, pattern))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

// foldDirectory reads a list directory as the indexer does.
func foldDirectory(t testing.TB, dir string) (*tally.FileState, []tally.Diagnostic) {
	t.Helper()
	evs, diags, err := New(Options{}).ReadDirectory(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: dir, Session: filepath.Base(dir), Current: true}
	for _, ev := range evs {
		st.Apply(ev)
	}
	return st, diags
}

// Every state of Claude Code's task files the captures recorded — each
// snapshot of tasks, tasks-partial, tasks-subagent and of the list two
// sessions shared (tasks-shared) — is exactly what Tally reads from it:
// every field of every task, deleted tasks gone, in id order.
func TestReadDirectory_EveryCapturedStateOfTheFiles(t *testing.T) {
	dirs := taskListDirs(t)
	shared := 0
	for _, dir := range dirs {
		st, diags := foldDirectory(t, dir)
		if len(diags) != 0 {
			t.Errorf("%s: %v", dir, diags)
		}
		want := readTaskDir(t, dir)
		l := st.Lists[""]
		if l == nil {
			t.Fatalf("%s: no list", dir)
		}
		items := l.Items()
		if got := taskViews(items, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got %+v\nwant %+v", dir, got, want)
		}
		for i := 1; i < len(items); i++ {
			a, _ := strconv.Atoi(items[i-1].ID)
			b, _ := strconv.Atoi(items[i].ID)
			if a >= b {
				t.Errorf("%s: task %s listed before %s: tasks are in id order", dir, items[i-1].ID, items[i].ID)
			}
		}
		if st.LastAt.IsZero() {
			t.Errorf("%s: no time: a list is as recent as its newest file", dir)
		}
		if strings.Contains(dir, "tasks-shared") {
			shared++
		}
	}
	if len(dirs) < 59 || shared < 21 {
		t.Fatalf("checked %d list states (%d of the shared list): the captures hold more", len(dirs), shared)
	}
}

// The shared list's deleted task (5, created and deleted by the second
// session) is in the snapshot taken between the two calls and in no later
// one; the list at exit has 4 tasks with the owners the sessions set.
func TestReadDirectory_SharedListDeletedTaskGoes(t *testing.T) {
	base := filepath.Join(captured, "tasks-shared")
	before, _ := foldDirectory(t, filepath.Join(base, "harness/snapshots/014/tasks/greet-team"))
	after, _ := foldDirectory(t, filepath.Join(base, "harness/snapshots/015/tasks/greet-team"))
	if n := len(before.Lists[""].Items()); n != 5 {
		t.Fatalf("before the delete: %d tasks, want 5", n)
	}
	for _, it := range after.Lists[""].Items() {
		if it.ID == "5" {
			t.Fatalf("deleted task 5 is still listed (as %s): deleted is removed, not completed", it.Status)
		}
	}
	final, _ := foldDirectory(t, filepath.Join(base, "config/tasks/greet-team"))
	var got []string
	for _, it := range final.Lists[""].Items() {
		got = append(got, it.ID+":"+it.Owner+":"+it.Status.String())
	}
	want := []string{"1:lead:completed", "2:mate:completed", "3:lead:completed", "4:lead:in_progress"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("at exit %v, want %v", got, want)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A file Claude Code would refuse is reported and left out, never failing
// the list; a file still empty is one being created, left out silently;
// lock and temporary files are not tasks; an unknown status word is kept.
func TestReadDirectory_BadFilesAreReportedAndLeftOut(t *testing.T) {
	dir := t.TempDir()
	good := `{"id":"1","subject":"Write tests","description":"d","activeForm":"Writing tests","status":"in_progress","blocks":["2"],"blockedBy":[]}`
	writeFile(t, filepath.Join(dir, "1.json"), good)
	writeFile(t, filepath.Join(dir, "2.json"), `{"id":"2","subject":"Ship","status":"on_hold","blocks":[],"blockedBy":["1"]}`)
	writeFile(t, filepath.Join(dir, "3.json"), ``)
	writeFile(t, filepath.Join(dir, "4.json"), `{"id":"4","subject":"Half`)
	writeFile(t, filepath.Join(dir, "5.json"), `{"id":"5","status":"pending"}`)
	writeFile(t, filepath.Join(dir, "6.json"), `{"id":"6","subject":"  ","status":"pending"}`)
	writeFile(t, filepath.Join(dir, "7.json"), `{"id":7,"subject":"x","status":"pending"}`)
	writeFile(t, filepath.Join(dir, "8.json"), `{"id":"8","subject":"x","status":"pending"} {}`)
	writeFile(t, filepath.Join(dir, "9.json"), `{"id":"9","subject":"`+strings.Repeat("x", maxTaskFile)+`","status":"pending"}`)
	writeFile(t, filepath.Join(dir, "10.json"), `{"id":"10","Subject":"Keys are matched exactly","status":"pending"}`)
	writeFile(t, filepath.Join(dir, "11.json"), `{"id":"11","subject":"x","status":""}`)
	writeFile(t, filepath.Join(dir, "1.json.tmp.5f80f317"), `{"id":"1","subject":"Other","status":"completed"}`)
	writeFile(t, filepath.Join(dir, ".lock"), ``)
	writeFile(t, filepath.Join(dir, ".highwatermark"), `9`)
	if err := os.Mkdir(filepath.Join(dir, "1.json.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	st, diags := foldDirectory(t, dir)
	var got []string
	for _, it := range st.Lists[""].Items() {
		got = append(got, it.ID+" "+it.Title+" "+it.StatusWord())
	}
	if want := []string{"1 Write tests in_progress", "2 Ship on_hold"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tasks %q, want %q", got, want)
	}
	var bad []string
	for _, d := range diags {
		bad = append(bad, filepath.Base(d.Path))
	}
	if want := []string{"10.json", "11.json", "4.json", "5.json", "6.json", "7.json", "8.json", "9.json"}; !reflect.DeepEqual(bad, want) {
		t.Errorf("reported %v, want %v (the empty file is being created: not a problem)", bad, want)
	}
}

// A list whose every task was removed is an empty list, not no list: it
// is as recent as its .highwatermark, which Claude Code writes on a removal.
func TestReadDirectory_EveryTaskRemovedIsAnEmptyList(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".highwatermark"), `3`)
	st, diags := foldDirectory(t, dir)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if l := st.Lists[""]; l == nil || l.Len() != 0 {
		t.Fatalf("lists %+v, want one empty list", st.Lists)
	}
	if st.LastAt.IsZero() {
		t.Error("no time for an emptied list")
	}
}

func FuzzDecodeTaskFile(f *testing.F) {
	for _, dir := range taskListDirs(f) {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, p := range paths {
			f.Add(read(f, p))
		}
	}
	f.Add([]byte(`{"id":"1","subject":"a","status":"pending","blocks":null,"blockedBy":[""]}`))
	f.Add([]byte(`{"id":"1","subject":"\ud800","status":"x"}`))
	f.Add([]byte(`{"id":"0","suBjeCt":"0","stAtus":""}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := decodeTaskFile(data)
		if err != nil {
			if it.ID != "" || it.Title != "" {
				t.Fatalf("a refused file gave an item %+v", it)
			}
			return
		}
		if it.ID == "" || strings.TrimSpace(it.Title) == "" || it.Source != tally.SourceTask {
			t.Fatalf("accepted a task without id or subject: %+v", it)
		}
		if it.Status == tally.StatusUnknown && it.RawStatus == "" {
			t.Fatalf("status neither known nor kept: %+v", it)
		}
		for _, id := range append(append([]string(nil), it.Blocks...), it.BlockedBy...) {
			if id == "" {
				t.Fatalf("an empty id among the blockers: %+v", it)
			}
		}
		again, err := decodeTaskFile(data)
		if err != nil || !reflect.DeepEqual(again, it) {
			t.Fatalf("decoding twice differs: %+v / %+v, %v", it, again, err)
		}
	})
}
