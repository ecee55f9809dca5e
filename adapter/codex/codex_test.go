package codex

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

func TestNew_Home(t *testing.T) {
	t.Run("option wins", func(t *testing.T) {
		t.Setenv("CODEX_HOME", "/env/codex")
		got := New(Options{Home: "/opt/codex"}).Roots()
		want := []string{"/opt/codex/sessions", "/opt/codex/archived_sessions"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("Roots() = %v, want %v", got, want)
		}
	})
	t.Run("no home reads nothing, whatever CODEX_HOME says", func(t *testing.T) {
		t.Setenv("CODEX_HOME", "/env/codex")
		if got := New(Options{}).Roots(); len(got) != 0 {
			t.Errorf("Roots() = %v, want none", got)
		}
	})
}

func TestAdapter_Match(t *testing.T) {
	a := New(Options{Home: "/h"})
	const id = "01a20394-9b6f-7950-b4c0-0ce93fabcd83"
	live, archived := "/h/sessions", "/h/archived_sessions"
	tests := []struct {
		root, path string
		ok         bool
	}{
		{live, live + "/2026/11/22/rollout-2026-11-22T14-06-40-" + id + ".jsonl", true},
		{archived, archived + "/rollout-2026-11-22T14-06-40-" + id + ".jsonl", true},
		{live, live + "/2026/11/rollout-2026-11-22T14-06-40-" + id + ".jsonl", false},
		{live, live + "/2026/11/x2/rollout-2026-11-22T14-06-40-" + id + ".jsonl", false},
		{live, live + "/2026/11/22/rollout-2026-11-22T14-06-40-" + id + ".json", false},
		{live, live + "/2026/11/22/rollout-2026-11-22T14:06:40-" + id + ".jsonl", false},
		{live, live + "/2026/11/22/rollout-2026-11-22T14-06-40-not-a-uuid.jsonl", false},
		{live, live + "/2026/11/22/session-2026-11-22T14-06-40-" + id + ".jsonl", false},
		{live, "/elsewhere/rollout-2026-11-22T14-06-40-" + id + ".jsonl", false},
	}
	for _, tt := range tests {
		fi, ok := a.Match(tt.root, tt.path)
		if ok != tt.ok {
			t.Errorf("Match(%s) ok = %v, want %v", tt.path, ok, tt.ok)
			continue
		}
		if ok && (fi.Session != id || fi.Path != tt.path || fi.List != "" || fi.Layout != tally.LayoutLog) {
			t.Errorf("Match(%s) = %+v, want session %s", tt.path, fi, id)
		}
	}
}

// A Codex home laid out as Codex lays it out: every rollout is found by
// walking the roots, and the session is the id Codex wrote in session_meta.
func TestAdapter_MatchLiveTree(t *testing.T) {
	home := t.TempDir()
	a := New(Options{Home: home})
	var want []string
	for i, src := range rollouts(t) {
		rel, _ := filepath.Rel(filepath.Join(filepath.Dir(src), "../../../.."), src) // sessions/YYYY/MM/DD/name
		dst := filepath.Join(home, rel)
		if i == 0 {
			dst = filepath.Join(home, "archived_sessions", filepath.Base(src))
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, read(t, src), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, dst)
	}
	// Files Codex keeps beside rollouts are not logs.
	for _, junk := range []string{"sessions/2026/11/22/notes.txt", "sessions/index.jsonl", "archived_sessions/2026/rollout-x.jsonl"} {
		p := filepath.Join(home, junk)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte("{}\n"), 0o644)
	}
	found := 0
	for _, root := range a.Roots() {
		err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			fi, ok := a.Match(root, path)
			if !ok {
				if strings.Contains(path, "rollout-2026-11-22") {
					t.Errorf("rollout not matched: %s", path)
				}
				return nil
			}
			found++
			first, _ := bufio.NewReader(bytes.NewReader(read(t, path))).ReadBytes('\n')
			if !bytes.Contains(first, []byte(`"id":"`+fi.Session+`"`)) {
				t.Errorf("%s: session %s is not the session_meta id", path, fi.Session)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found != len(want) {
		t.Errorf("matched %d files, want %d", found, len(want))
	}
}

func TestAdapter_Sniff(t *testing.T) {
	a := New(Options{Home: t.TempDir()})
	first := func(path string) []byte {
		line, _ := bufio.NewReader(bytes.NewReader(read(t, path))).ReadBytes('\n')
		return bytes.TrimSpace(line)
	}
	for _, p := range append(rollouts(t), execStreams(t)...) {
		if !a.Sniff(first(p)) {
			t.Errorf("Sniff(first line of %s) = false", p)
		}
	}
	others := captures(t, "captured/claude-code-2.1.330/*/stream-json.stdout.jsonl")
	others = append(others, captures(t, "captured/gemini-cli-0.61.0/*/*.jsonl")...)
	for _, p := range others {
		if a.Sniff(first(p)) {
			t.Errorf("Sniff(first line of %s) = true, not a Codex log", p)
		}
	}
	for _, s := range []string{"", "{", `{"type":"session_meta"}`, `{"type":"item.started"}`, "[1]"} {
		if a.Sniff([]byte(s)) {
			t.Errorf("Sniff(%q) = true", s)
		}
	}
}

func TestDecoder_SessionFacts(t *testing.T) {
	path := captures(t, "captured/codex-0.169.0/update-plan-resume/codex_home/sessions/*/*/*/rollout-*.jsonl")[0]
	a := New(Options{Home: t.TempDir()})
	st := lineByLine(t, a, fileInfo(t, a, path), read(t, path), func([]byte, *tally.FileState) {})
	if st.Project != "/tmp/capture/cx/update-plan-resume/work" {
		t.Errorf("project %q, want the session_meta cwd", st.Project)
	}
	// The prompt, not the <environment_context> Codex sends before it, and
	// not the prompt of the resumed turn.
	const prompt = "Create greet.py with a greet(name) function, add a test and update the README. Keep a plan as you go."
	if st.Title != tally.PromptTitle(prompt) || !strings.HasPrefix(prompt, strings.TrimSuffix(st.Title, "…")) || !st.TitleWeak {
		t.Errorf("title %q (weak %v), want the first prompt, weak", st.Title, st.TitleWeak)
	}
	if want := time.Date(2026, 11, 22, 14, 6, 40, 509e6, time.UTC); !st.StartedAt.Equal(want) {
		t.Errorf("started %v, want %v (session_meta)", st.StartedAt, want)
	}
	lastLine := read(t, path)
	lastLine = lastLine[bytes.LastIndexByte(bytes.TrimSpace(lastLine), '\n')+1:]
	if !bytes.Contains(lastLine, []byte(st.LastAt.Format("2006-01-02T15:04:05.000Z"))) {
		t.Errorf("last activity %v is not the newest line's time (%.80s)", st.LastAt, lastLine)
	}
	if st.Signal != tally.SignalWaiting {
		t.Errorf("signal %v after task_complete, want waiting", st.Signal)
	}
}
