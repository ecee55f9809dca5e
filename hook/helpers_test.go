package hook_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	. "github.com/tallyhq/tally/hook"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const rec = "testdata/claude-2.1.330"

// payload reads a recorded payload and parses it as Claude Code's.
func payload(t *testing.T, path string) Event {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rec, path))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := ClaudeFormat{}.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ev
}

// ownList folds a recorded transcript with the Claude adapter: the list
// the session had when its hooks ran.
func ownList(t *testing.T, transcript string) List {
	t.Helper()
	path := filepath.Join(rec, transcript)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := claude.New(claude.Options{ConfigDir: t.TempDir()}).NewDecoder(tally.FileInfo{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: path}
	st.Feed(dec, data)
	l := st.Lists[""]
	if l == nil {
		t.Fatalf("%s folds to no main list", transcript)
	}
	return List{Kind: ListOwn, Items: l.Items()}
}

// golden compares got with testdata/golden/name, or rewrites it with
// -update. An empty answer is stored as an empty file.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func item(id, title string, s tally.Status, blockedBy ...string) tally.Item {
	src := tally.SourceTodo
	if id != "" {
		src = tally.SourceTask
	}
	return tally.Item{ID: id, Title: title, Status: s, BlockedBy: blockedBy, Source: src}
}
