package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const fixtures = "../../testdata/fixtures"

// captures lists the real files of a glob under the fixtures, sorted.
func captures(t testing.TB, glob string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtures, glob))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no fixtures match %s", glob)
	}
	sort.Strings(paths)
	return paths
}

func rollouts(t testing.TB) []string {
	return captures(t, "captured/codex-0.169.0/*/codex_home/sessions/*/*/*/rollout-*.jsonl")
}

func execStreams(t testing.TB) []string {
	out := captures(t, "captured/codex-0.169.0/*/exec*-json.stdout.jsonl")
	return append(out, captures(t, "codex-exec/*.jsonl")...)
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fileInfo is what Match says of a fixture: a rollout is matched under its
// codex_home/sessions root; an exec stream is not a file Codex keeps, so it
// has no session until its thread.started line.
func fileInfo(t testing.TB, a *Adapter, path string) tally.FileInfo {
	t.Helper()
	dir := path
	for filepath.Base(dir) != "sessions" {
		next := filepath.Dir(dir)
		if next == dir {
			return tally.FileInfo{Path: path}
		}
		dir = next
	}
	fi, ok := a.Match(dir, path)
	if !ok {
		t.Fatalf("Match(%s) = false", path)
	}
	return fi
}

// lineByLine folds data one line at a time, as a live tail sees a file
// grow, calling after with each line and the state just after it.
func lineByLine(t testing.TB, a *Adapter, fi tally.FileInfo, data []byte, after func(line []byte, st *tally.FileState)) *tally.FileState {
	t.Helper()
	f := adaptertest.NewFolder(t, a, fi)
	for _, line := range adaptertest.Lines(data) {
		for _, d := range f.Feed(line) {
			t.Errorf("diagnostic at %d: %s", d.Offset, d.Msg)
		}
		after(bytes.TrimSpace(line), f.St)
	}
	return f.St
}

// step is an item reduced to what a user sees: its text and status word.
type step struct{ Text, Status string }

func stepsOf(l *tally.List) []step {
	if l == nil {
		return []step{}
	}
	out := []step{}
	for _, it := range l.Items() {
		out = append(out, step{it.Title, it.StatusWord()})
	}
	return out
}

func fileInfoFor(session string) tally.FileInfo {
	return tally.FileInfo{Path: "fuzz.jsonl", Session: session}
}
