package tail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// skipAdapter claims *.log files and skips directories named "venv".
type skipAdapter struct{ root string }

func (a skipAdapter) Agent() tally.Agent { return "test" }
func (a skipAdapter) Roots() []string    { return []string{a.root} }
func (a skipAdapter) Match(root, path string) (tally.FileInfo, bool) {
	return tally.FileInfo{Path: path, Session: filepath.Base(path)}, strings.HasSuffix(path, ".log")
}
func (a skipAdapter) SkipDir(root, dir string) bool { return filepath.Base(dir) == "venv" }

func TestWalk_SkipsWhatTheAdapterLeavesOut(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a.log", "sessions/b.log", "venv/lib/c.log", "venv/d.log"} {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x\n"), 0o644)
	}
	a := skipAdapter{root}
	var dirs []string // the directories the indexer would watch
	found, walked, err := Walk([]tally.Adapter{a}, func(dir string) { dirs = append(dirs, dir) })
	if err != nil || !walked[root] {
		t.Fatal(err)
	}
	var names []string
	for _, f := range found {
		names = append(names, filepath.Base(f.Info.Path))
	}
	if strings.Join(names, ",") != "a.log,b.log" {
		t.Errorf("found %v, want a.log and b.log only", names)
	}
	for _, d := range dirs {
		if strings.Contains(d, "venv") {
			t.Errorf("walked into %s", d)
		}
	}
	if !Skipped([]tally.Adapter{a}, filepath.Join(root, "venv", "lib")) {
		t.Error("a directory below a skipped one is not skipped (the watcher would watch it)")
	}
	if Skipped([]tally.Adapter{a}, filepath.Join(root, "sessions")) {
		t.Error("sessions skipped")
	}
}
