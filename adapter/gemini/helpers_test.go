package gemini

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// captured is the Gemini CLI 0.61.0 capture tree, beside the checkout.
const captured = "../../testdata/fixtures/captured/gemini-cli-0.61.0"

// logFile is one fixture with the FileInfo it is read with.
type logFile struct {
	path string
	info tally.FileInfo
}

// fixtureFiles lists every line-based Gemini fixture: the chat records
// (matched as the indexer would, their gemini_home standing for ~/.gemini),
// the stream-json captures, and the built files.
func fixtureFiles(t testing.TB) []logFile {
	t.Helper()
	var out []logFile
	scenarios, _ := filepath.Glob(captured + "/*")
	for _, s := range scenarios {
		a := New(Options{Home: filepath.Join(s, "gemini_home")})
		root := a.Roots()[0]
		_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			if fi, ok := a.Match(root, p); ok && fi.Layout != tally.LayoutWhole {
				out = append(out, logFile{path: p, info: fi})
			}
			return nil
		})
		if p := filepath.Join(s, "stream-json.stdout.jsonl"); exists(p) {
			out = append(out, logFile{path: p, info: tally.FileInfo{Path: p, Session: filepath.Base(s)}})
		}
	}
	built, _ := filepath.Glob("testdata/built-*.jsonl")
	for _, p := range built {
		out = append(out, logFile{path: p, info: tally.FileInfo{Path: p, Session: strings.TrimSuffix(filepath.Base(p), ".jsonl")}})
	}
	if len(out) < 10 {
		t.Fatalf("found only %d fixture files under %s and testdata", len(out), captured)
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

// newFolder feeds a file one line at a time, rebuilding the decoder from
// its saved state before every line as a restart would.
func newFolder(t testing.TB, fi tally.FileInfo) *adaptertest.Folder {
	f := adaptertest.NewFolder(t, New(Options{Home: t.TempDir()}), fi)
	f.Restart = true
	return f
}

// want is an expected item in the agent's own words.
type want struct{ title, status string }

func sameItems(t testing.TB, ctx string, got []tally.Item, exp []want) {
	t.Helper()
	ok := len(got) == len(exp)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i].Title == exp[i].title && got[i].StatusWord() == exp[i].status
	}
	if !ok {
		var g []want
		for _, it := range got {
			g = append(g, want{it.Title, it.StatusWord()})
		}
		t.Errorf("%s: list = %v, want %v", ctx, g, exp)
	}
}
