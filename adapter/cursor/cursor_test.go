package cursor

import (
	"bytes"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const built = "testdata/built-todowrite.jsonl"

func read(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var info = tally.FileInfo{Path: built, Session: "built-todowrite"}

func TestAdapter_Suite(t *testing.T) {
	adaptertest.Run(t, New(Options{}), info, read(t, built))
}

func FuzzDecoder(f *testing.F) {
	data := read(f, built)
	var seeds [][]byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		seeds = append(seeds, l)
	}
	seeds = append(seeds, data)
	adaptertest.Fuzz(f, New(Options{}), tally.FileInfo{Path: "fuzz.jsonl", Session: "s"}, seeds...)
}

type step struct{ ID, Title, Status string }

// TestDecoder_mergeUpdatesByIDAndReplaceReplaces: merge:false is the whole
// list; merge:true changes the items it names by id, keeping what it leaves
// out (the text), and appends an id it does not know.
func TestDecoder_mergeUpdatesByIDAndReplaceReplaces(t *testing.T) {
	st := adaptertest.Fold(t, New(Options{}), info, read(t, built), 0)
	var got []step
	for _, it := range st.Lists[""].Items() {
		got = append(got, step{it.ID, it.Title, it.StatusWord()})
	}
	want := []step{
		{"handler", "Add the /health handler", "completed"},
		{"test", "Test the endpoint", "completed"},
		{"docs", "Note it in the README", "cancelled"},
		{"bench", "Benchmark the handler", "pending"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("list %v\nwant %v", got, want)
	}
	if st.Title != "Add a /health endpoint to the API and test it" || !st.TitleWeak {
		t.Errorf("title %q (weak %v)", st.Title, st.TitleWeak)
	}
	if at := time.Date(2026, 11, 24, 8, 41, 0, 0, time.UTC); !st.StartedAt.Equal(at) {
		t.Errorf("started %v, want the prompt's %v", st.StartedAt, at)
	}
	if st.Signal != tally.SignalWaiting {
		t.Errorf("signal %v, want waiting after turn_ended", st.Signal)
	}
	if st.LastAt.Before(st.StartedAt) {
		t.Errorf("last activity %v: the file's time was not read", st.LastAt)
	}
	again := adaptertest.Fold(t, New(Options{}), info, read(t, built)[:bytes.Index(read(t, built), []byte(`{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Read"`))], 0)
	if again.Signal != tally.SignalWorking {
		t.Errorf("signal mid-turn %v, want working", again.Signal)
	}
}

func TestPromptTime(t *testing.T) {
	for s, want := range map[string]time.Time{
		"Tuesday, Jun 16, 2026, 8:41 PM (UTC-4)":  time.Date(2026, 6, 17, 0, 41, 0, 0, time.UTC),
		"Tuesday, Jul 28, 2026, 12:06 PM (UTC+2)": time.Date(2026, 7, 28, 10, 6, 0, 0, time.UTC),
		"Monday, Jan 5, 2026, 9:00 AM (UTC+5:30)": time.Date(2026, 1, 5, 3, 30, 0, 0, time.UTC),
		"Monday, Jan 5, 2026, 9:00 AM (UTC)":      time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
		"Monday, Jan 5, 2026, 9:00 AM":            {},
		"Monday, Jan 5, 2026, 9:00 AM (UTC+99)":   {},
		"yesterday (UTC+1)":                       {},
	} {
		if got := promptTime(s); !got.Equal(want) {
			t.Errorf("promptTime(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestFolderOf(t *testing.T) {
	dirs := map[string]bool{"/home": true, "/home/me": true, "/home/me/my-api": true, "/home/me/my": true, "/srv": true}
	isDir := func(p string) bool { return dirs[p] }
	for slug, want := range map[string]string{
		"home-me-my-api": "/home/me/my-api",
		"home-me":        "/home/me",
		"srv-gone":       "",
		"":               "",
	} {
		if got := folderOf(slug, isDir); got != want {
			t.Errorf("folderOf(%q) = %q, want %q", slug, got, want)
		}
	}
}

func TestAdapter_Match(t *testing.T) {
	a := New(Options{Home: "/h/.cursor"})
	root := a.Roots()[0]
	for path, want := range map[string]string{
		root + "/home-me-api/agent-transcripts/5c1e/5c1e.jsonl":  "5c1e",
		root + "/home-me-api/agent-transcripts/5c1e.jsonl":       "5c1e",
		root + "/home-me-api/agent-transcripts/5c1e/other.jsonl": "",
		root + "/home-me-api/agent-transcripts/5c1e.txt":         "",
		root + "/home-me-api/terminals/1.jsonl":                  "",
	} {
		fi, ok := a.Match(root, path)
		if ok != (want != "") || fi.Session != want {
			t.Errorf("Match(%s) = %+v, %v; want %q", path, fi, ok, want)
		}
	}
	for dir, skip := range map[string]bool{
		root + "/home-me-api": false, root + "/home-me-api/agent-transcripts": false,
		root + "/home-me-api/agent-transcripts/5c1e": false, root + "/home-me-api/terminals": true,
		root + "/home-me-api/agent-transcripts/5c1e/x": true,
	} {
		if got := a.SkipDir(root, dir); got != skip {
			t.Errorf("SkipDir(%s) = %v, want %v", dir, got, skip)
		}
	}
}

func TestStatusWord(t *testing.T) {
	for in, want := range map[string]string{"in_progress": "in_progress", "TODO_STATUS_IN_PROGRESS": "in_progress", "TODO_STATUS_CANCELLED": "cancelled", "done": "done"} {
		if got := statusWord(in); got != want {
			t.Errorf("statusWord(%q) = %q, want %q", in, got, want)
		}
	}
}
