package claude

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// fixtures is the shared fixture tree, beside the repository checkout.
const fixtures = "../../testdata/fixtures"

const captured = fixtures + "/captured/claude-code-2.1.330"

// logFile is one fixture with the FileInfo Match gives it.
type logFile struct {
	path string
	info tally.FileInfo
}

// fixtureFiles lists every Claude transcript and stream-json capture.
func fixtureFiles(t testing.TB) []logFile {
	t.Helper()
	var out []logFile
	a := New(Options{ConfigDir: "/nonexistent"})
	add := func(root, path string) {
		fi, ok := a.Match(root, path)
		if !ok {
			fi = tally.FileInfo{Path: path, Session: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
		}
		out = append(out, logFile{path: path, info: fi})
	}
	legacy, _ := filepath.Glob(fixtures + "/claude/*.jsonl")
	for _, p := range legacy {
		add(filepath.Dir(filepath.Dir(p)), p)
	}
	scenarios, _ := filepath.Glob(captured + "/*")
	for _, s := range scenarios {
		root := filepath.Join(s, "config", "projects")
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".jsonl") {
				add(root, p)
			}
			return nil
		})
		streams, _ := filepath.Glob(filepath.Join(s, "*stream-json.stdout.jsonl"))
		for _, p := range streams {
			add(s, p)
		}
	}
	built, _ := filepath.Glob("testdata/*.jsonl")
	for _, p := range built {
		add("testdata", p)
	}
	if len(out) < 10 {
		t.Fatalf("found only %d fixture files under %s", len(out), fixtures)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func read(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newFolder(t testing.TB, fi tally.FileInfo) *adaptertest.Folder {
	return adaptertest.NewFolder(t, New(Options{}), fi)
}

// foldAll folds a whole file the indexer's way.
func foldAll(t testing.TB, fi tally.FileInfo, data []byte) *tally.FileState {
	return adaptertest.Fold(t, New(Options{}), fi, data, 0)
}
