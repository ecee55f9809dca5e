package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

func TestAdapter_Match(t *testing.T) {
	home := t.TempDir()
	a := New(Options{Home: home})
	root := a.Roots()[0]
	if root != filepath.Join(home, "tmp") {
		t.Fatalf("root %s", root)
	}
	// A legacy .json whose migrated .jsonl exists beside it is not read.
	migrated := filepath.Join(root, "p", "chats", "session-2026-01-02T03-04-bbbbbbbb")
	if err := os.MkdirAll(filepath.Dir(migrated), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".json", ".jsonl"} {
		if err := os.WriteFile(migrated+ext, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		rel  string
		ok   bool
		want tally.FileInfo
	}{
		{"work/chats/session-2026-11-22T14-06-1564209c.jsonl", true, tally.FileInfo{Session: "1564209c"}},
		{"0f0f/chats/session-2025-06-01T10-00-aaaaaaaa.json", true, tally.FileInfo{Session: "aaaaaaaa", Layout: tally.LayoutWhole}},
		{"p/chats/session-2026-01-02T03-04-bbbbbbbb.json", false, tally.FileInfo{}},
		{"p/chats/session-2026-01-02T03-04-bbbbbbbb.jsonl", true, tally.FileInfo{Session: "bbbbbbbb"}},
		{"work/chats/1564209c-0c60-4a4a-a7cd-21b9d55db59a/5ab1e000-0000-4000-8000-000000000000.jsonl", true,
			tally.FileInfo{Session: "1564209c-0c60-4a4a-a7cd-21b9d55db59a", List: "5ab1e000-0000-4000-8000-000000000000"}},
		{"work/chats/notes.jsonl", false, tally.FileInfo{}},
		{"work/chats/session-.jsonl", false, tally.FileInfo{}},
		{"work/logs.json", false, tally.FileInfo{}},
		{"work/1fb695ac-76cc-4120-8ded-da2b5d3b24a5/tracker/33a9ea.json", false, tally.FileInfo{}},
		{"work/chats/session-2026-11-22T14-06-1564209c.jsonl.bak", false, tally.FileInfo{}},
		{"work/chats/abc/x.jsonl", false, tally.FileInfo{}},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			p := filepath.Join(root, tt.rel)
			got, ok := a.Match(root, p)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, got)
			}
			if !ok {
				return
			}
			tt.want.Path = p
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// A session is named by its full id, which the chat file's first line
// holds; its name holds only the first 8 characters. The name is the
// fallback for a file whose head says nothing, and an empty file is not a
// chat record yet.
func TestAdapter_Match_FullSessionID(t *testing.T) {
	for _, scen := range []string{"write-todos", "task-tracker", "acp-write-todos"} {
		home := filepath.Join(captured, scen, "gemini_home")
		a := New(Options{Home: home})
		paths, _ := filepath.Glob(filepath.Join(home, "tmp/*/chats/session-*.jsonl"))
		for _, p := range paths {
			var header struct{ SessionID string }
			if err := json.Unmarshal(adaptertest.Lines(read(t, p))[0], &header); err != nil || len(header.SessionID) != 36 {
				t.Fatalf("%s: header %+v, %v", p, header, err)
			}
			if fi, ok := a.Match(a.Roots()[0], p); !ok || fi.Session != header.SessionID {
				t.Errorf("%s: session %q, the header says %q", filepath.Base(p), fi.Session, header.SessionID)
			}
		}
	}

	home := t.TempDir()
	a := New(Options{Home: home})
	chats := filepath.Join(a.Roots()[0], "p", "chats")
	if err := os.MkdirAll(chats, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(chats, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, body, want string
		ok               bool
	}{
		{"session-2026-01-02T03-04-abcd1234.json", "{\n  \"sessionId\": \"abcd1234-0000-4000-8000-00000000000a\",\n  \"messages\": []\n}", "abcd1234-0000-4000-8000-00000000000a", true},
		{"session-2026-01-02T03-04-cccc0000.jsonl", "", "", false},
		{"session-2026-01-02T03-04-dddd0000.jsonl", `{"sessionId":"eeee0000-1111"}` + "\n", "dddd0000", true},
		{"session-2026-01-02T03-04-ffff0000.jsonl", `{"messages":[]}` + "\n", "ffff0000", true},
	} {
		fi, ok := a.Match(a.Roots()[0], write(c.name, c.body))
		if ok != c.ok || fi.Session != c.want {
			t.Errorf("%s: Match = %q %v, want %q %v", c.name, fi.Session, ok, c.want, c.ok)
		}
	}
}

func TestNew_Home(t *testing.T) {
	t.Setenv("GEMINI_CLI_HOME", "/alt")
	if got := New(Options{}).Roots(); len(got) != 0 {
		t.Errorf("no home: roots %v, want none (the environment is not the adapter's to read)", got)
	}
	if got := New(Options{Home: "/x/.gemini"}).Roots(); len(got) != 1 || got[0] != "/x/.gemini/tmp" {
		t.Errorf("option: roots %v", got)
	}
}

func TestAdapter_Sniff(t *testing.T) {
	a := New(Options{Home: t.TempDir()})
	for _, f := range fixtureFiles(t) {
		first := adaptertest.Lines(read(t, f.path))[0]
		if !a.Sniff(first) {
			t.Errorf("%s: first line not recognised", f.path)
		}
	}
	for _, s := range []string{`{"type":"system","session_id":"x"}`, `{"sessionId":"x","type":"user"}`, `not json`} {
		if a.Sniff([]byte(s)) {
			t.Errorf("sniffed %s", s)
		}
	}
}

// TestAdapter_ProjectRegistry: the project registry's ownership marker
// names the project better than the session context does.
func TestAdapter_ProjectRegistry(t *testing.T) {
	home := t.TempDir()
	chats := filepath.Join(home, "tmp", "work", "chats")
	if err := os.MkdirAll(chats, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "tmp", "work", ".project_root"), []byte("/home/me/work\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(captured, "write-todos/gemini_home/tmp/work/chats/session-2026-11-22T14-06-1564209c.jsonl")
	p := filepath.Join(chats, filepath.Base(src))
	a := New(Options{Home: home})
	fi, _ := a.Match(a.Roots()[0], p)
	if st := foldAll(t, a, fi, read(t, src)); st.Project != "/home/me/work" {
		t.Errorf("project %q, want the registry's /home/me/work", st.Project)
	}
	// projects.json alone also maps the slug back.
	home2 := t.TempDir()
	reg, _ := json.Marshal(map[string]any{"projects": map[string]string{"/srv/app": "work"}})
	if err := os.WriteFile(filepath.Join(home2, "projects.json"), reg, 0o644); err != nil {
		t.Fatal(err)
	}
	a2 := New(Options{Home: home2})
	p2 := filepath.Join(home2, "tmp", "work", "chats", filepath.Base(src))
	fi2, _ := a2.Match(a2.Roots()[0], p2)
	if st := foldAll(t, a2, fi2, read(t, src)); st.Project != "/srv/app" {
		t.Errorf("project %q, want projects.json's /srv/app", st.Project)
	}
}

// TestTracker_MatchesTaskFiles: the tasks folded from the task-tracker
// chat record are the tracker's own task files at exit: ids, titles,
// statuses and dependencies.
func TestTracker_MatchesTaskFiles(t *testing.T) {
	home := filepath.Join(captured, "task-tracker", "gemini_home")
	a := New(Options{Home: home})
	chats, _ := filepath.Glob(filepath.Join(home, "tmp/work/chats/session-*.jsonl"))
	if len(chats) != 1 {
		t.Fatalf("fixture: %v", chats)
	}
	fi, _ := a.Match(a.Roots()[0], chats[0])
	sameAsTaskFiles(t, home, foldAll(t, a, fi, read(t, chats[0])))
}

// The stream of `gemini -p --output-format stream-json` with the tracker
// on says which tracker tools ran, but neither the ids the creates got nor
// the list: its tool_results carry no output. The tracker's own files,
// beside the chat record, say it all: a stream read where Gemini CLI's
// home is known lists the tasks as the index does.
func TestTracker_StreamReadsTheTrackersFiles(t *testing.T) {
	home := filepath.Join(captured, "task-tracker", "gemini_home")
	p := filepath.Join(captured, "task-tracker", "stream-json.stdout.jsonl")
	st := foldAll(t, New(Options{Home: home}), tally.FileInfo{Path: "-"}, read(t, p))
	sameAsTaskFiles(t, home, st)
}

// Where the tracker's files are not to be found (a stream read on another
// machine), the stream still lists the tasks it saw created, by title; the
// updates of tasks whose ids it never saw are counted as orphans.
func TestTracker_StreamWithoutTheFilesListsWhatWasCreated(t *testing.T) {
	p := filepath.Join(captured, "task-tracker", "stream-json.stdout.jsonl")
	st := foldAll(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: "-"}, read(t, p))
	var titles []string
	for _, it := range st.Lists[""].Items() {
		titles = append(titles, it.Title)
	}
	if want := []string{"Greeting feature", "Write greet.py", "Add unit test", "Update README"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("tasks %q, want the four created %q", titles, want)
	}
	if st.Stats.Orphans == 0 {
		t.Error("updates of tasks the stream never named were not counted")
	}
}

// sameAsTaskFiles checks the folded tasks against the tracker's task files.
func sameAsTaskFiles(t *testing.T, home string, st *tally.FileState) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "tmp/work/*/tracker/*.json"))
	if len(files) != 4 {
		t.Fatalf("fixture: %v", files)
	}
	if st.Lists[""] == nil {
		t.Fatal("no list")
	}
	got := map[string]tally.Item{}
	for _, it := range st.Lists[""].Items() {
		if it.Source != tally.SourceTask {
			t.Errorf("item %q from source %v, want task", it.Title, it.Source)
		}
		got[it.ID] = it
	}
	// The tracker's words, as its own visualisation maps them.
	words := map[string]string{"open": "pending", "in_progress": "in_progress", "blocked": "blocked", "closed": "completed"}
	for _, f := range files {
		var task struct {
			ID, Title, Status string
			Dependencies      []string
		}
		if err := json.Unmarshal(read(t, f), &task); err != nil {
			t.Fatal(err)
		}
		it, ok := got[task.ID]
		if !ok {
			t.Errorf("task %s (%s) missing", task.ID, task.Title)
			continue
		}
		deps := append([]string{}, it.BlockedBy...)
		sort.Strings(deps)
		sort.Strings(task.Dependencies)
		if it.Title != task.Title || it.StatusWord() != words[task.Status] || len(deps) != len(task.Dependencies) ||
			(len(deps) > 0 && deps[0] != task.Dependencies[0]) {
			t.Errorf("task %s: got %q %s %v, want %q %s %v", task.ID, it.Title, it.StatusWord(), deps, task.Title, task.Status, task.Dependencies)
		}
	}
	if len(got) != len(files) {
		t.Errorf("%d tasks, want %d", len(got), len(files))
	}
}

// TestChat_SubAgentList: a sub-agent's chat fills its own list, under the
// parent session, and does not set the session's title.
func TestChat_SubAgentList(t *testing.T) {
	home := t.TempDir()
	a := New(Options{Home: home})
	p := filepath.Join(a.Roots()[0], "work", "chats", "rewind00-0000-4000-8000-000000000001", "sub00000-0000-4000-8000-000000000009.jsonl")
	fi, ok := a.Match(a.Roots()[0], p)
	if !ok || fi.Session != "rewind00-0000-4000-8000-000000000001" || fi.List != "sub00000-0000-4000-8000-000000000009" {
		t.Fatalf("Match = %+v, %v", fi, ok)
	}
	st := foldAll(t, a, fi, read(t, "testdata/built-rewind.jsonl"))
	if l := st.Lists[""]; l != nil && l.Len() > 0 {
		t.Errorf("main list filled from a sub-agent: %+v", l.Items())
	}
	if st.Lists[fi.List] == nil || st.Title != "" {
		t.Errorf("sub-agent list missing or title %q set", st.Title)
	}
}

// FuzzHeaderID: whatever a chat file's head holds, the id read from it is
// none or a plain id, never a path.
func FuzzHeaderID(f *testing.F) {
	f.Add([]byte(`{"sessionId":"1564209c-0c60-4a4a-a7cd-21b9d55db59a","projectHash":"x"}`))
	f.Add([]byte("{\n  \"sessionId\" :\t\"abc\",\n"))
	f.Add([]byte(`{"sessionId":"../../etc"}`))
	f.Add([]byte(`"sessionId"`))
	f.Fuzz(func(t *testing.T, head []byte) {
		id := headerID(head)
		if id != "" && (!safeID(id) || strings.ContainsAny(id, "./ \"")) {
			t.Errorf("headerID = %q", id)
		}
	})
}
