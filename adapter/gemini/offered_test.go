package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// Each capture is read with the settings.json it ran with, and what Tally
// says of its list tools is checked against the tools Gemini CLI really
// offered the model (the first request's, harness/tools-first-request.json):
// "offered" only when a list tool was there, "none" only when none was —
// and "none", with the setting that gives one, for the default model
// (auto: a Gemini 3 preview), the case the rule is for.
func TestListTools_followTheModelAndTheTracker(t *testing.T) {
	scenarios, _ := filepath.Glob(captured + "/*")
	sawNone := false
	for _, s := range scenarios {
		var tools []string
		if err := json.Unmarshal(read(t, filepath.Join(s, "harness/tools-first-request.json")), &tools); err != nil {
			t.Fatal(err)
		}
		offered := slices.Contains(tools, "write_todos") || slices.Contains(tools, "tracker_create_task")
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, "settings.json"), read(t, filepath.Join(s, "harness/settings.json")), 0o644); err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(filepath.Join(s, "gemini_home/tmp"))
		if err := os.Symlink(abs, filepath.Join(home, "tmp")); err != nil {
			t.Fatal(err)
		}
		a := New(Options{Home: home})
		files := streamFiles(s)
		_ = filepath.WalkDir(a.Roots()[0]+"/", func(p string, e os.DirEntry, err error) error {
			if fi, ok := a.Match(a.Roots()[0], p); err == nil && !e.IsDir() && ok && fi.List == "" {
				files = append(files, logFile{p, fi})
			}
			return nil
		})
		for _, f := range files {
			st := adaptertest.Fold(t, a, f.info, read(t, f.path), 0)
			name := filepath.Base(s) + "/" + filepath.Base(f.path)
			switch {
			case st.ListTools == tally.ListToolsOffered && !offered:
				t.Errorf("%s: list tools offered, but Gemini CLI offered none", name)
			case st.ListTools == tally.ListToolsNone && offered:
				t.Errorf("%s: list tools none, but Gemini CLI offered %v", name, tools)
			}
			if filepath.Base(s) == "probe-default-model" {
				sawNone = true
				if st.ListTools != tally.ListToolsNone || !strings.Contains(st.ListToolsHint, "taskTracker") {
					t.Errorf("%s: list tools %q, hint %q; want none, naming the tracker's setting", name, st.ListTools, st.ListToolsHint)
				}
			}
		}
	}
	if !sawNone {
		t.Fatal("no probe-default-model capture read")
	}
}

func streamFiles(s string) []logFile {
	p := filepath.Join(s, "stream-json.stdout.jsonl")
	if !exists(p) {
		return nil
	}
	return []logFile{{p, tally.FileInfo{Path: p, Session: filepath.Base(s)}}}
}

func TestListTools(t *testing.T) {
	for _, c := range []struct {
		model          string
		tracker, known bool
		want           tally.ListTools
	}{
		{"gemini-3.1-pro-preview", false, true, tally.ListToolsNone},
		{"auto", false, true, tally.ListToolsNone},
		{"gemini-2.5-flash-preview", false, true, tally.ListToolsNone},
		{"gemini-3.1-pro-preview", true, true, tally.ListToolsOffered},
		{"gemini-2.5-pro", false, true, tally.ListToolsUnknown}, // headless needs yolo too: the log cannot tell
		{"gemini-3.1-pro-preview", false, false, tally.ListToolsUnknown},
		{"", false, true, tally.ListToolsUnknown},
	} {
		if got := listTools(c.model, c.tracker, c.known).ListTools; got != c.want {
			t.Errorf("listTools(%q, tracker %v, known %v) = %q, want %q", c.model, c.tracker, c.known, got, c.want)
		}
	}
}

func TestTrackerEnabled_aSettingsFileWithCommentsSaysNothing(t *testing.T) {
	home := t.TempDir()
	if on, ok := trackerEnabled(home); on || !ok {
		t.Errorf("no settings.json: on %v ok %v, want the default (off, known)", on, ok)
	}
	_ = os.WriteFile(filepath.Join(home, "settings.json"), []byte("{// c\n\"experimental\":{\"taskTracker\":true}}"), 0o644)
	if _, ok := trackerEnabled(home); ok {
		t.Error("a file that is not plain JSON was taken as known")
	}
}
