package tail

import (
	"os"
	"path/filepath"
	"slices"
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
	w := Walk([]tally.Adapter{a}, nil, func(dir string) { dirs = append(dirs, dir) })
	if w.Err != nil || !w.Walked[root] {
		t.Fatal(w.Err)
	}
	var names []string
	for _, f := range w.Found {
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

// TestWalk_FollowsLinksToDirectoriesAndFiles: a home kept elsewhere and
// linked in (the root itself, a project folder, a log) is walked as if it
// were there, under the names the links give; a link back to an ancestor
// is walked once, not for ever.
func TestWalk_FollowsLinksToDirectoriesAndFiles(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real") // the root's own folder
	other := filepath.Join(base, "other")
	for _, p := range []string{"real/a.log", "other/b.log", "other/logs/c.log", "elsewhere/d.log"} {
		full := filepath.Join(base, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x\n"), 0o644)
	}
	root := filepath.Join(base, "root")
	links := map[string]string{
		root:                                 real,                                   // the root is a link
		filepath.Join(real, "project"):       other,                                  // a folder of it is
		filepath.Join(real, "d.log"):         filepath.Join(base, "elsewhere/d.log"), // a log is
		filepath.Join(other, "logs", "back"): real,                                   // a loop
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	var dirs []string
	w := Walk([]tally.Adapter{skipAdapter{root}}, nil, func(dir string) { dirs = append(dirs, dir) })
	if w.Err != nil || !w.Walked[root] {
		t.Fatalf("err %v, walked %v", w.Err, w.Walked)
	}
	var names []string
	for _, f := range w.Found {
		rel, _ := filepath.Rel(root, f.Info.Path)
		names = append(names, rel)
	}
	want := "a.log,d.log,project/b.log,project/logs/c.log"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("found %s, want %s (each once, named through the links)", got, want)
	}
	for _, d := range []string{root, filepath.Join(root, "project"), filepath.Join(root, "project", "logs")} {
		if !slices.Contains(dirs, d) {
			t.Errorf("%s not watched; watched %v", d, dirs)
		}
	}
}

// TestWalk_ALinkToALogOfTheSameHomeIsNoSecondName: the log is read under
// its own name; a notification for the link finds no file either.
func TestWalk_ALinkToALogOfTheSameHomeIsNoSecondName(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "p"), 0o755)
	os.WriteFile(filepath.Join(root, "p", "a.log"), []byte("x\n"), 0o644)
	link := filepath.Join(root, "b.log")
	if err := os.Symlink(filepath.Join(root, "p", "a.log"), link); err != nil {
		t.Fatal(err)
	}
	a := skipAdapter{root}
	w := Walk([]tally.Adapter{a}, nil, nil)
	if len(w.Found) != 1 || w.Found[0].Info.Path != filepath.Join(root, "p", "a.log") {
		t.Errorf("found %+v, want p/a.log alone", w.Found)
	}
	if f, ok := Claim([]tally.Adapter{a}, link); ok {
		t.Errorf("the link was claimed: %+v", f)
	}
}
