package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally/internal/testhome"
)

// goEnv is what `go env NAME…` prints, one value per name.
func goEnv(t *testing.T, names ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	values := strings.Split(string(out), "\n")
	if len(values) < len(names) {
		t.Fatalf("go env %v: %q", names, out)
	}
	return values[:len(names)]
}

// filesUnder lists every file below dir.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// TestSetup_GoRunRefusesToInstallItsThrowawayBuild is the first thing a
// user tries from a clone: `go run ./cmd/tally setup claude`. What go run
// runs lives in Go's build cache (or, the first time, in a go-build work
// folder), gone when Go trims it; setup says so, says how to install
// tally, and writes nothing — with --dry-run too.
func TestSetup_GoRunRefusesToInstallItsThrowawayBuild(t *testing.T) {
	home := t.TempDir()
	goVars := goEnv(t, "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS")
	env := testhome.Environ(home, "GOCACHE="+goVars[0], "GOMODCACHE="+goVars[1], "GOPATH="+goVars[2], "GOFLAGS="+goVars[3])
	for _, args := range [][]string{{"setup", "claude"}, {"setup", "claude", "--dry-run", "--guard-stop"}} {
		cmd := exec.Command("go", append([]string{"run", "./cmd/tally"}, args...)...)
		cmd.Dir, cmd.Env = "..", env
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("go run ./cmd/tally %v succeeded:\n%s", args, out)
		}
		for _, want := range []string{"go install ./cmd/tally", "--tally PATH", "throwaway build"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("go run ./cmd/tally %v does not say %q:\n%s", args, want, out)
			}
		}
		if !strings.Contains(string(out), "Go's build cache") && !strings.Contains(string(out), "go-build") {
			t.Errorf("go run ./cmd/tally %v does not say where its build is:\n%s", args, out)
		}
	}
	// (go itself keeps its telemetry counters in the home's .config/go.)
	for _, settings := range []string{".claude", ".claude.json"} {
		if _, err := os.Lstat(filepath.Join(home, settings)); err == nil {
			t.Errorf("setup wrote %s: %v", settings, filesUnder(t, filepath.Join(home, settings)))
		}
	}
}

// TestSetup_ABinaryInATemporaryFolderIsRefusedUnlessNamed: the same for a
// tally built into a temporary folder (as this test's is); naming it with
// --tally is the user's choice, taken with a note, and every command
// installed names it by its absolute path.
func TestSetup_ABinaryInATemporaryFolderIsRefusedUnlessNamed(t *testing.T) {
	home := t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := exec.Command(tallyBin, args...)
		cmd.Env = testhome.Environ(home)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{{"setup", "codex"}, {"setup", "codex", "--dry-run"}} {
		out, err := run(args...)
		if err == nil || !strings.Contains(out, "a temporary folder") || !strings.Contains(out, "go install ./cmd/tally") {
			t.Errorf("tally %v: %v\n%s", args, err, out)
		}
	}
	if files := filesUnder(t, home); len(files) != 0 {
		t.Fatalf("setup wrote %v", files)
	}
	out, err := run("setup", "codex", "--tally", tallyBin)
	if err != nil || !strings.Contains(out, "note: "+tallyBin+" is in a temporary folder") {
		t.Fatalf("tally setup codex --tally %s: %v\n%s", tallyBin, err, out)
	}
	hooks, err := os.ReadFile(filepath.Join(home, ".codex", "hooks.json"))
	if err != nil || !strings.Contains(string(hooks), `"`+tallyBin+` hook codex`) {
		t.Errorf("hooks.json: %v\n%s", err, hooks)
	}
}
