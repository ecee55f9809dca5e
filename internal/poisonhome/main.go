package main

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite"

	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/cli"
	"github.com/tallyhq/tally/internal/testhome"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/sqlite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: poisonhome DIR")
		os.Exit(2)
	}
	home, err := filepath.Abs(os.Args[1])
	if err == nil {
		err = fill(home)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "poisonhome:", err)
		os.Exit(1)
	}
	for _, kv := range Environ(home) {
		fmt.Println(kv)
	}
}

// Environ is every variable through which Tally could find a user's
// world (testhome.UserWorld), each pointing into home: the home itself,
// the XDG folders, each agent's own variables and Tally's. An agent's
// variable that names one of its homes points where its default would be
// in home (agentValues); the others are named here.
func Environ(home string) []string {
	values := agentValues(home)
	maps.Copy(values, map[string]string{
		"HOME":                   home,
		"XDG_CONFIG_HOME":        filepath.Join(home, ".config"),
		"XDG_DATA_HOME":          filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME":         filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME":         filepath.Join(home, ".cache"),
		"CLAUDE_CODE_SESSION_ID": "00000000-0000-4000-8000-00000000dead",
		"OPENCODE_DB":            filepath.Join(home, ".local", "share", "opencode", "opencode.db"),
		"CRUSH_DATA_DIR":         filepath.Join(home, "src"),
		"TALLY_DB":               filepath.Join(home, ".local", "share", "tally", "tally.db"),
		"TALLY_CONFIG":           filepath.Join(home, ".config", "tally", "config.toml"),
		"TALLY_TOKEN":            "tly_poisoned_token",
		"TALLY_SERVER":           "http://127.0.0.1:9/",
		"TALLY_ADDR":             "127.0.0.1:9",
		"TALLY_LIST":             "poisoned-list",
	})
	env := make([]string, 0, len(testhome.UserWorld))
	for _, name := range testhome.UserWorld {
		v, ok := values[name]
		if !ok && slices.Contains(agents.Vars(), name) {
			// An agent's variable that names no home of its own (a
			// session's id, a file's path): a place in home of its own.
			v, ok = filepath.Join(home, "poisoned", name), true
		}
		if !ok {
			panic("poisonhome: no poisoned value for " + name + ", a variable through which Tally finds a user's world")
		}
		env = append(env, name+"="+v)
	}
	return env
}

// agentValues are, for each agent's variable that moves one of its homes,
// the value that puts that home where the agent's default under home
// would be: $GEMINI_CLI_HOME is home itself, its .gemini below it.
func agentValues(home string) map[string]string {
	values := map[string]string{}
	for _, d := range agents.All {
		for _, h := range d.Homes {
			def := ""
			for _, p := range h.From {
				if p.Under == adapter.UnderHome {
					def = filepath.Join(home, p.Path)
					break
				}
			}
			for _, p := range h.From {
				if p.Var == "" || def == "" {
					continue
				}
				if _, set := values[p.Var]; !set {
					values[p.Var] = strings.TrimSuffix(strings.TrimSuffix(def, p.Path), string(filepath.Separator))
				}
			}
		}
	}
	return values
}

const (
	captured = "testdata/fixtures/captured/"
	adapters = "adapter/"
)

func fill(home string) error {
	steps := []func(string) error{claude, codex, gemini, hermes, opencode, crush, goose, settings}
	for _, step := range steps {
		if err := step(home); err != nil {
			return err
		}
	}
	return index(home)
}

// claude: every captured Claude Code config (transcripts and Task lists),
// each capture's projects side by side, and the older public transcripts.
func claude(home string) error {
	dir := filepath.Join(home, ".claude")
	configs, _ := filepath.Glob(captured + "claude-code-*/*/config")
	for _, c := range configs {
		if err := copyTree(dir, c); err != nil {
			return err
		}
	}
	old, _ := filepath.Glob("testdata/fixtures/claude/*.jsonl")
	for _, f := range old {
		if err := copyFile(filepath.Join(dir, "projects", "-home-dev-src-old", filepath.Base(f)), f); err != nil {
			return err
		}
	}
	return nil
}

// codex: every captured Codex home's sessions, and one archived.
func codex(home string) error {
	dir := filepath.Join(home, ".codex")
	homes, _ := filepath.Glob(captured + "codex-*/*/codex_home")
	for _, h := range homes {
		if err := copyTree(dir, h); err != nil {
			return err
		}
	}
	rollouts, _ := filepath.Glob(adapters + "codex/testdata/plan-markers/rollout-*.jsonl")
	for _, r := range rollouts {
		if err := copyFile(filepath.Join(dir, "archived_sessions", filepath.Base(r)), r); err != nil {
			return err
		}
	}
	return nil
}

// gemini: every captured Gemini CLI home, each capture as a project of
// its own (they were all made in a folder named work).
func gemini(home string) error {
	homes, _ := filepath.Glob(captured + "gemini-*/*/gemini_home/tmp/work")
	for _, h := range homes {
		name := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(h))))
		if err := copyTree(filepath.Join(home, ".gemini", "tmp", name), h); err != nil {
			return err
		}
	}
	return nil
}

func hermes(home string) error {
	dir := filepath.Join(home, ".hermes")
	if err := database(filepath.Join(dir, "state.db"), adapters+"hermes/testdata/built-state-v2.sql"); err != nil {
		return err
	}
	return copyFile(filepath.Join(dir, "sessions", "session_20260105_120000_abcdef.json"),
		adapters+"hermes/testdata/built-session_20260105_120000_abcdef.json")
}

func opencode(home string) error {
	dir := filepath.Join(home, ".local", "share", "opencode")
	if err := database(filepath.Join(dir, "opencode.db"), adapters+"opencode/testdata/built-opencode.sql"); err != nil {
		return err
	}
	return copyTree(dir, adapters+"opencode/testdata/built-legacy")
}

// crush: a project under ~/src with its database (CRUSH_DATA_DIR names
// ~/src, a folder above projects).
func crush(home string) error {
	return database(filepath.Join(home, "src", "api", ".crush", "crush.db"), adapters+"crush/testdata/built-crush.sql")
}

// goose: its sessions database where GOOSE_PATH_ROOT, as Environ sets it,
// leads (its data folder inside).
func goose(home string) error {
	root := agentValues(home)["GOOSE_PATH_ROOT"]
	return database(filepath.Join(root, "data", "sessions", "sessions.db"), adapters+"goose/testdata/built-goose.sql")
}

// settings: the agents' own settings, as a user who set them up by hand
// keeps them, and Tally's settings with thresholds no test expects.
func settings(home string) error {
	files := map[string]string{
		".claude/settings.json": `{"model": "opus", "env": {"DISABLE_TELEMETRY": "1"}}` + "\n",
		".claude/.claude.json":  `{"mcpServers": {"mine": {"command": "/usr/bin/true"}}}` + "\n",
		".claude.json":          `{"mcpServers": {"mine": {"command": "/usr/bin/true"}}}` + "\n",
		".codex/config.toml":    "model = \"gpt-5\"\n\n[mcp_servers.mine]\ncommand = \"/usr/bin/true\"\n",
		".gemini/settings.json": `{"mcpServers": {"mine": {"command": "/usr/bin/true"}}}` + "\n",
		".config/tally/config.toml": "[detect]\nstalled_after = \"1s\"\nloop_repeats = 2\nno_progress_calls = 2\n\n" +
			"[notify]\nevents = [\"finished\"]\n",
	}
	for name, content := range files {
		path := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// index: Tally's own index of all that, where Tally keeps it by default,
// made by tally scan run as the user would run it.
func index(home string) error {
	env := cli.Env{
		Out: os.Stderr, Err: os.Stderr,
		Getenv: func(k string) string {
			for _, kv := range Environ(home) {
				if name, v, _ := strings.Cut(kv, "="); name == k {
					return v
				}
			}
			return ""
		},
		Now: time.Now, Home: home, Dir: filepath.Join(home, "src", "api"),
		OpenStore: func(ctx context.Context, path string) (store.Store, error) {
			s, err := sqlite.Open(ctx, path)
			if err != nil {
				return nil, err
			}
			return s, nil
		},
	}
	if code := cli.Run(context.Background(), env, []string{"scan"}); code != cli.ExitOK {
		return fmt.Errorf("tally scan of the poisoned home: exit %d", code)
	}
	return nil
}

// database builds an agent's SQLite database from one of its adapter's
// test scripts, in WAL mode as the agents keep them.
func database(path, script string) error {
	src, err := os.ReadFile(script)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(string(src)); err != nil {
		return fmt.Errorf("%s: %w", script, err)
	}
	return nil
}

// copyTree copies src's files under dst, keeping a file already there.
func copyTree(dst, src string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		return copyFile(filepath.Join(dst, rel), path)
	})
}

func copyFile(dst, src string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
