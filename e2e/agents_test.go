package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/tallyhq/tally/internal/testhome"
)

// copyTree copies the files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(out), 0o755)
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// database builds an agent's SQLite database from a built fixture script.
func database(t *testing.T, script, path string) {
	t.Helper()
	text, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), string(text)); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// TestSessions_EveryAgentSideBySideFromDefaultHomes is issue 3's "done
// when": with nothing but HOME (and the working directory, for Crush's
// per-project database), tally finds each agent where the agent itself
// keeps its logs, and lists them together.
func TestSessions_EveryAgentSideBySideFromDefaultHomes(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	cap := fixtures + "captured/"
	copyTree(t, cap+"claude-code-2.1.330/tasks/config/projects", filepath.Join(home, ".claude/projects"))
	copyTree(t, cap+"codex-0.169.0/update-plan-resume/codex_home/sessions", filepath.Join(home, ".codex/sessions"))
	copyTree(t, cap+"gemini-cli-0.61.0/write-todos/gemini_home/tmp", filepath.Join(home, ".gemini/tmp"))
	database(t, "../adapter/hermes/testdata/built-state-v2.sql", filepath.Join(home, ".hermes/state.db"))
	database(t, "../adapter/opencode/testdata/built-opencode.sql", filepath.Join(home, ".local/share/opencode/opencode.db"))
	database(t, "../adapter/crush/testdata/built-crush.sql", filepath.Join(work, ".crush/crush.db"))

	run := func(args ...string) []byte {
		cmd := exec.Command(tallyBin, args...)
		cmd.Dir = work
		cmd.Env = testhome.Environ(home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tally %v: %v\n%s", args, err, out)
		}
		return out
	}
	run("scan")
	if _, err := os.Stat(filepath.Join(home, ".local/share/tally/tally.db")); err != nil {
		t.Fatalf("the index is not at its default place: %v", err)
	}
	var sessions []struct {
		Agent    string
		Progress struct{ Total int }
	}
	out := run("sessions", "--json")
	if err := json.Unmarshal(out, &sessions); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	withLists := map[string]bool{}
	for _, s := range sessions {
		if s.Progress.Total > 0 {
			withLists[s.Agent] = true
		}
	}
	var got []string
	for a := range withLists {
		got = append(got, a)
	}
	sort.Strings(got)
	if want := "claude,codex,crush,gemini,hermes,opencode"; strings.Join(got, ",") != want {
		t.Fatalf("agents with a list: %v, want %s\n%s", got, want, out)
	}
}
