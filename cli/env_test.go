package cli

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/acp"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/crush"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/adapter/opencode"
	"github.com/tallyhq/tally/agents"
)

// buildAgentDB creates an agent's database at path from one of its
// adapter's test scripts, as the agent keeps it (WAL mode).
func buildAgentDB(t *testing.T, path, script string) {
	t.Helper()
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(src)); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

func copyTree(t *testing.T, dst, src string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// TestScan_TheEnvIsAllACommandReads: the process's own home, variables
// and working directory all hold sessions of every agent, yet a command
// run with an Env naming other ones reads none of them — a test's fake
// Env isolates it from the developer's real agent data. The same data
// found through an Env that names it shows every agent, so the first
// half can fail.
func TestScan_TheEnvIsAllACommandReads(t *testing.T) {
	real := t.TempDir()
	copyTree(t, filepath.Join(real, ".gemini"), "../testdata/fixtures/captured/gemini-cli-0.61.0/write-todos/gemini_home")
	copyTree(t, filepath.Join(real, "codex"), "../testdata/fixtures/captured/codex-0.169.0/update-plan-resume/codex_home")
	buildAgentDB(t, filepath.Join(real, "hermes", "state.db"), "../adapter/hermes/testdata/built-state-v2.sql")
	buildAgentDB(t, filepath.Join(real, "xdg", "opencode", "opencode.db"), "../adapter/opencode/testdata/built-opencode.sql")
	work := filepath.Join(real, "src", "api")
	buildAgentDB(t, filepath.Join(work, ".crush", "crush.db"), "../adapter/crush/testdata/built-crush.sql")
	claudeDir, err := filepath.Abs(filepath.Join(captured, "tasks/config"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"HOME":              real,
		"CLAUDE_CONFIG_DIR": claudeDir,
		"CODEX_HOME":        filepath.Join(real, "codex"),
		"HERMES_HOME":       filepath.Join(real, "hermes"),
		"XDG_DATA_HOME":     filepath.Join(real, "xdg"),
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
	for _, k := range []string{"GEMINI_CLI_HOME", "OPENCODE_DB", "CRUSH_DATA_DIR"} {
		t.Setenv(k, "")
	}
	t.Chdir(work)

	agents := func(home, dir string, env map[string]string) []string {
		t.Helper()
		st := newStore(t)
		var out, errOut syncBuffer
		e := testEnv(st, &out, &errOut, env)
		e.Home, e.Dir = home, dir
		if code := Run(t.Context(), e, []string{"sessions", "--scan", "--json"}); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var list []tally.Session
		if err := json.Unmarshal([]byte(out.String()), &list); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		var got []string
		for _, s := range list {
			if !slices.Contains(got, s.Agent.String()) {
				got = append(got, s.Agent.String())
			}
		}
		slices.Sort(got)
		return got
	}
	if got := agents(t.TempDir(), t.TempDir(), nil); len(got) != 0 {
		t.Errorf("an Env naming an empty home read the process's own: sessions of %v", got)
	}
	want := []string{"claude", "codex", "crush", "gemini", "hermes", "opencode"}
	if got := agents(real, work, vars); !slices.Equal(got, want) {
		t.Errorf("through an Env naming them: sessions of %v, want %v", got, want)
	}
}

// TestApp_agentDirs: each agent's own rule for where it keeps sessions —
// a flag wins, then the agent's variable, then its place in the home.
func TestApp_agentDirs(t *testing.T) {
	type all map[tally.Agent]adapter.Dirs
	// Each agent's rule as its descriptor says it; an agent registered
	// since is checked by its own descriptor's tests.
	same := func(got, want all) bool {
		for a, w := range want {
			if !reflect.DeepEqual(got[a], w) {
				return false
			}
		}
		return len(got) >= len(want)
	}
	dirs := func(env map[string]string, home string, args ...string) all {
		t.Helper()
		a := &app{env: Env{Getenv: func(k string) string { return env[k] }, Home: home, Dir: "/w"}}
		if err := a.rootCommand().PersistentFlags().Parse(args); err != nil {
			t.Fatal(err)
		}
		out := all{}
		for _, d := range agents.All {
			out[d.Agent] = a.dirs(d)
		}
		return out
	}
	one := func(dir string) []string { return []string{dir} }
	defaults := dirs(nil, "/h")
	want := all{
		// Claude Code's user config is in the home, beside ~/.claude, unless
		// a config directory is named: then it is inside that directory.
		claude.Agent: {"": one("/h/.claude"), "userconfig": one("/h/.claude.json")}, codex.Agent: {"": one("/h/.codex")},
		gemini.Agent: {"": one("/h/.gemini")}, hermes.Agent: {"": one("/h/.hermes")},
		opencode.Agent: {"": one("/h/.local/share/opencode")}, crush.Agent: {"": one("/w/.crush"), "global": one("/h/.local/share/crush")}, acp.Agent: {},
	}
	if !same(defaults, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", defaults, want)
	}
	vars := dirs(map[string]string{
		"CLAUDE_CONFIG_DIR": "/c", "CODEX_HOME": "/x", "GEMINI_CLI_HOME": "/g", "HERMES_HOME": "/hm",
		"XDG_DATA_HOME": "/data", "OPENCODE_DB": "oc.db", "CRUSH_DATA_DIR": "/cr",
	}, "/h")
	want = all{
		// GEMINI_CLI_HOME is the home that holds .gemini, not .gemini.
		claude.Agent: {"": one("/c"), "userconfig": one("/c/.claude.json")}, codex.Agent: {"": one("/x")},
		gemini.Agent: {"": one("/g/.gemini")}, hermes.Agent: {"": one("/hm")},
		opencode.Agent: {"": one("/data/opencode"), "db": one("oc.db")}, crush.Agent: {"": {"/w/.crush", "/cr"}, "global": one("/data/crush")}, acp.Agent: {},
	}
	if !same(vars, want) {
		t.Errorf("variables:\n got %+v\nwant %+v", vars, want)
	}
	flags := dirs(map[string]string{"CLAUDE_CONFIG_DIR": "/c", "CRUSH_DATA_DIR": "/cr"}, "/h",
		"--claude-dir", "/fc", "--codex-home", "/fx", "--gemini-home", "/fg", "--hermes-home", "/fh", "--opencode-dir", "/fo",
		"--crush-dir", "rel", "--crush-dir", "/abs")
	want = all{
		claude.Agent: {"": one("/fc"), "userconfig": one("/fc/.claude.json")}, codex.Agent: {"": one("/fx")},
		gemini.Agent: {"": one("/fg")}, hermes.Agent: {"": one("/fh")},
		opencode.Agent: {"": one("/fo")}, crush.Agent: {"": {"/w/rel", "/abs"}, "global": one("/h/.local/share/crush")}, acp.Agent: {},
	}
	if !same(flags, want) {
		t.Errorf("flags:\n got %+v\nwant %+v", flags, want)
	}
	want = all{claude.Agent: {}, codex.Agent: {}, gemini.Agent: {}, hermes.Agent: {}, opencode.Agent: {}, crush.Agent: {"": one("/w/.crush")}, acp.Agent: {}}
	if none := dirs(nil, ""); !same(none, want) {
		t.Errorf("no home: %+v, want nothing under a home", none)
	}
}
