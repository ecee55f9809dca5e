package setup

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const tallyBin = "/usr/local/bin/tally"

var now = time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC)

// home lays files out in a fresh home: name in testdata -> path in home.
func home(t *testing.T, files map[string]string) Paths {
	t.Helper()
	h := t.TempDir()
	for src, dst := range files {
		b, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(h, dst)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return paths(h)
}

// Paths are the agents' settings folders a test sets up.
type Paths struct {
	ClaudeDir, ClaudeUserConfig, CodexHome, GeminiDir string
}

// target is the setup of the agent named, in p's folders.
func (p Paths) target(name string) Target {
	switch name {
	case "claude":
		return Claude(p.ClaudeDir, p.ClaudeUserConfig)
	case "codex":
		return Codex(p.CodexHome)
	case "gemini":
		return Gemini(p.GeminiDir)
	}
	panic("no setup for " + name)
}

// paths are the agents' default places under home h.
func paths(h string) Paths {
	return Paths{ClaudeDir: filepath.Join(h, ".claude"), ClaudeUserConfig: filepath.Join(h, ".claude.json"),
		CodexHome: filepath.Join(h, ".codex"), GeminiDir: filepath.Join(h, ".gemini")}
}

// home of p, for the tests' file names.
func homeOf(p Paths) string { return filepath.Dir(p.ClaudeDir) }

// run plans and applies one setup, failing the test on error, with the
// record of what setup added kept between runs in the home, as tally
// setup keeps it in its state folder.
func run(t *testing.T, target string, p Paths, o Options) Plan {
	t.Helper()
	o.Tally = cmp(o.Tally, tallyBin)
	record := filepath.Join(homeOf(p), "tally-state", "setup.json")
	owned, err := LoadOwned(record)
	if err != nil {
		t.Fatal(err)
	}
	o.Owned = owned
	plan, err := p.target(target).Plan(o)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if _, err := Apply(plan, now); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if plan.Owned != nil {
		if err := SaveOwned(record, plan.Owned); err != nil {
			t.Fatal(err)
		}
	}
	return plan
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// topKeys lists a JSON object's keys in file order.
func topKeys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(stripComments(b)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestClaude(t *testing.T) {
	t.Run("fresh home", func(t *testing.T) {
		p := home(t, nil)
		run(t, "claude", p, Options{GuardStop: true, EnableTodoTools: true})
		golden(t, "claude-fresh-settings.json", read(t, filepath.Join(homeOf(p), ".claude", "settings.json")))
		golden(t, "claude-fresh-user-config.json", read(t, filepath.Join(homeOf(p), ".claude.json")))
	})
	t.Run("unknown user keys are kept in their order, a second run changes nothing", func(t *testing.T) {
		p := home(t, map[string]string{"claude-settings-user.json": ".claude/settings.json", "claude-user-config.json": ".claude.json"})
		settings := filepath.Join(homeOf(p), ".claude", "settings.json")
		before := topKeys(t, read(t, settings))
		run(t, "claude", p, Options{GuardStop: true})
		after := read(t, settings)
		golden(t, "claude-user-settings.json", after)
		if got := topKeys(t, after); strings.Join(got, ",") != strings.Join(before, ",") {
			t.Errorf("keys %v, were %v", got, before)
		}
		second, err := p.target("claude").Plan(Options{Tally: tallyBin, GuardStop: true})
		if err != nil || second.Changed() {
			t.Errorf("second run: %v, plans %+v", err, second.Edits)
		}
		if n := strings.Count(string(after), "hook claude"); n != 5 {
			t.Errorf("%d Tally hooks, want 5", n)
		}
	})
	t.Run("remote approvals add the PermissionRequest hook with the agent's own timeout, and go without the flag", func(t *testing.T) {
		p := home(t, nil)
		settings := filepath.Join(homeOf(p), ".claude", "settings.json")
		run(t, "claude", p, Options{RemoteApprovals: true})
		var got struct {
			Hooks map[string][]hookGroup `json:"hooks"`
		}
		if err := json.Unmarshal(read(t, settings), &got); err != nil {
			t.Fatal(err)
		}
		pr := got.Hooks["PermissionRequest"]
		if len(pr) != 1 || pr[0].Hooks[0].Command != tallyBin+" hook claude" || pr[0].Hooks[0].Timeout != 600 || pr[0].Matcher != "" {
			t.Fatalf("PermissionRequest hook: %+v", pr)
		}
		if second, err := p.target("claude").Plan(Options{Tally: tallyBin, RemoteApprovals: true}); err != nil || second.Changed() {
			t.Errorf("second run: %v, plans %+v", err, second.Edits)
		}
		run(t, "claude", p, Options{})
		if strings.Contains(string(read(t, settings)), "PermissionRequest") {
			t.Errorf("a run without --remote-approvals kept the hook")
		}
	})
	t.Run("the CLAUDE_CONFIG_DIR layout", func(t *testing.T) {
		p := home(t, nil)
		h := homeOf(p)
		p.ClaudeDir, p.ClaudeUserConfig = filepath.Join(h, "cc"), filepath.Join(h, "cc", ".claude.json")
		run(t, "claude", p, Options{})
		for _, f := range []string{"cc/settings.json", "cc/.claude.json"} {
			if _, err := os.Stat(filepath.Join(h, f)); err != nil {
				t.Error(err)
			}
		}
	})
	t.Run("another tally path replaces Tally's hooks rather than adding to them", func(t *testing.T) {
		p := home(t, nil)
		run(t, "claude", p, Options{GuardStop: true})
		run(t, "claude", p, Options{GuardStop: true, Tally: "/opt/tally/bin/tally"})
		b := read(t, filepath.Join(homeOf(p), ".claude", "settings.json"))
		if strings.Contains(string(b), tallyBin) || strings.Count(string(b), "hook claude") != 5 {
			t.Errorf("settings:\n%s", b)
		}
	})
	t.Run("uninstall removes Tally's entries only, back to the file as it was", func(t *testing.T) {
		p := home(t, map[string]string{"claude-settings-user.json": ".claude/settings.json", "claude-user-config.json": ".claude.json"})
		settings, config := filepath.Join(homeOf(p), ".claude", "settings.json"), filepath.Join(homeOf(p), ".claude.json")
		orig, origConfig := read(t, settings), read(t, config)
		run(t, "claude", p, Options{GuardStop: true, EnableTodoTools: true})
		run(t, "claude", p, Options{Uninstall: true, EnableTodoTools: true})
		if got := read(t, settings); !bytes.Equal(got, orig) {
			t.Errorf("settings after uninstall:\n%s\nwere:\n%s", got, orig)
		}
		if got := read(t, config); !bytes.Equal(got, origConfig) {
			t.Errorf("user config after uninstall:\n%s\nwas:\n%s", got, origConfig)
		}
		backups, _ := filepath.Glob(settings + ".tally-backup-*")
		if len(backups) != 2 {
			t.Errorf("backups %v: each run keeps its own", backups)
		}
	})
	t.Run("dry run writes nothing", func(t *testing.T) {
		p := home(t, map[string]string{"claude-settings-user.json": ".claude/settings.json"})
		plan, err := p.target("claude").Plan(Options{Tally: tallyBin})
		if err != nil {
			t.Fatal(err)
		}
		d := plan.Edits[0].Diff()
		if !strings.HasPrefix(d, "--- ") || !strings.Contains(d, "+        \"matcher\": \"startup|resume|clear|compact\",") {
			t.Errorf("diff:\n%s", d)
		}
		if got := read(t, filepath.Join(homeOf(p), ".claude", "settings.json")); !bytes.Equal(got, read(t, "testdata/claude-settings-user.json")) {
			t.Error("Plan wrote the file")
		}
		if _, err := os.Stat(filepath.Join(homeOf(p), ".claude.json")); err == nil {
			t.Error("Plan created the user config")
		}
	})
	for name, want := range map[string]string{
		"claude-settings-comments.json": "settings.json line 3: invalid character '/' looking for beginning of object key string (Claude Code reads this file as plain JSON: it allows no comments)",
		"claude-settings-invalid.json":  "settings.json line 5: invalid character '}'",
	} {
		t.Run("unreadable settings are left untouched: "+name, func(t *testing.T) {
			p := home(t, map[string]string{name: ".claude/settings.json"})
			_, err := p.target("claude").Plan(Options{Tally: tallyBin})
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("err %v, want %q", err, want)
			}
			if got := read(t, filepath.Join(homeOf(p), ".claude", "settings.json")); !bytes.Equal(got, read(t, "testdata/"+name)) {
				t.Error("the file changed")
			}
		})
	}
	t.Run("an MCP server named tally that is not tally mcp is the user's", func(t *testing.T) {
		p := home(t, nil)
		cfg := filepath.Join(homeOf(p), ".claude.json")
		os.WriteFile(cfg, []byte(`{"mcpServers": {"tally": {"type": "http", "url": "http://127.0.0.1:7600/mcp"}}}`), 0o600)
		plan := run(t, "claude", p, Options{})
		if strings.Contains(string(read(t, cfg)), "stdio") || !strings.Contains(strings.Join(plan.Notes, "\n"), "left as it is") {
			t.Errorf("config %s, notes %v", read(t, cfg), plan.Notes)
		}
	})
}

func TestCodex(t *testing.T) {
	p := home(t, map[string]string{"codex-config.toml": ".codex/config.toml"})
	cfg, hooks := filepath.Join(homeOf(p), ".codex", "config.toml"), filepath.Join(homeOf(p), ".codex", "hooks.json")
	orig := read(t, cfg)
	plan := run(t, "codex", p, Options{GuardStop: true})
	golden(t, "codex-config.toml", read(t, cfg))
	golden(t, "codex-hooks.json", read(t, hooks))
	if !strings.Contains(strings.Join(plan.Notes, "\n"), "trust") {
		t.Errorf("notes %v", plan.Notes)
	}
	second, err := p.target("codex").Plan(Options{Tally: tallyBin, GuardStop: true})
	if err != nil || second.Changed() {
		t.Errorf("second run: %v %+v", err, second.Edits)
	}
	run(t, "codex", p, Options{Uninstall: true})
	if got := read(t, cfg); !bytes.Equal(got, orig) {
		t.Errorf("config.toml after uninstall:\n%s", got)
	}
	t.Run("a table named like mcp_servers in another case is not Codex's: Tally's server is added beside it", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(path, []byte("[mCp_servers.tally]\ncommand = \"/usr/bin/other\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		e, notes, err := editCodexConfig(path, Options{Tally: tallyBin}, nil)
		if err != nil || len(notes) > 0 {
			t.Fatalf("err %v, notes %v", err, notes)
		}
		if err := checkCodexConfig(path, e.After, &codexServer{Command: tallyBin}); err != nil || !bytes.Contains(e.After, []byte("[mCp_servers.tally]")) {
			t.Errorf("%v\n%s", err, e.After)
		}
	})
	t.Run("invalid TOML is named with its line", func(t *testing.T) {
		p := home(t, map[string]string{"codex-config-invalid.toml": ".codex/config.toml"})
		_, err := p.target("codex").Plan(Options{Tally: tallyBin})
		if err == nil || !strings.Contains(err.Error(), "config.toml line 2") {
			t.Errorf("err %v", err)
		}
	})
}

func TestGemini(t *testing.T) {
	p := home(t, map[string]string{"gemini-settings-comments.json": ".gemini/settings.json"})
	settings := filepath.Join(homeOf(p), ".gemini", "settings.json")
	run(t, "gemini", p, Options{})
	got := read(t, settings)
	golden(t, "gemini-settings.json", got)
	if !strings.Contains(string(got), "// Gemini CLI reads this file") || !strings.Contains(string(got), "/* inline */") {
		t.Error("comments lost")
	}
	t.Run("hooks beside the user's own, in milliseconds; a second run changes nothing; uninstall restores the file", func(t *testing.T) {
		p := home(t, map[string]string{"gemini-settings-hooks.json": ".gemini/settings.json"})
		settings := filepath.Join(homeOf(p), ".gemini", "settings.json")
		orig := read(t, settings)
		run(t, "gemini", p, Options{GuardStop: true})
		got := read(t, settings)
		golden(t, "gemini-settings-hooks.json", got)
		var v struct {
			Hooks map[string][]hookGroup `json:"hooks"`
		}
		if err := json.Unmarshal(stripComments(got), &v); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(got), "hook gemini"); n != len(geminiHooks) {
			t.Errorf("%d Tally hooks, want %d", n, len(geminiHooks))
		}
		if g := v.Hooks["AfterTool"]; len(g) != 2 || g[0].Hooks[0].Command != "$GEMINI_PROJECT_DIR/.gemini/hooks/lint.sh" || g[1].Hooks[0].Timeout != 5000 {
			t.Errorf("AfterTool groups %+v", g)
		}
		if g := v.Hooks["PreCompress"]; len(g) != 1 || g[0].Matcher != "manual" {
			t.Errorf("PreCompress %+v: only a compression the user asks for is sure to follow", g)
		}
		second, err := p.target("gemini").Plan(Options{Tally: tallyBin, GuardStop: true})
		if err != nil || second.Changed() {
			t.Errorf("second run: %v, plans %+v", err, second.Edits)
		}
		run(t, "gemini", p, Options{Uninstall: true})
		if got := read(t, settings); !bytes.Equal(got, orig) {
			t.Errorf("after uninstall:\n%s\nwas:\n%s", got, orig)
		}
	})
	t.Run("a trailing comma, which Gemini CLI cannot read, is refused", func(t *testing.T) {
		p := home(t, map[string]string{"gemini-settings-trailing.json": ".gemini/settings.json"})
		_, err := p.target("gemini").Plan(Options{Tally: tallyBin})
		if err == nil || !strings.Contains(err.Error(), "settings.json line 3") {
			t.Errorf("err %v", err)
		}
	})
}

// A fresh session gets the plan protocol only if the SessionStart hook
// runs at a startup: Claude Code and Codex run it for every source its
// matcher names (startup, resume, clear, compact, both checked with the
// real CLIs by e2e), and an install made when it named only compact and
// resume is brought up to date by the next setup.
func TestSetup_sessionStartHookRunsAtEveryStartOfAContext(t *testing.T) {
	for _, c := range []struct{ agent, file string }{{"claude", ".claude/settings.json"}, {"codex", ".codex/hooks.json"}} {
		t.Run(c.agent, func(t *testing.T) {
			p := home(t, nil)
			path := filepath.Join(homeOf(p), c.file)
			old := `{"hooks": {"SessionStart": [{"matcher": "compact|resume", "hooks": [{"type": "command", "command": "` + tallyBin + ` hook ` + c.agent + `", "timeout": 5}]}]}}`
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
				t.Fatal(err)
			}
			run(t, c.agent, p, Options{})
			var got struct {
				Hooks map[string][]hookGroup `json:"hooks"`
			}
			if err := json.Unmarshal(read(t, path), &got); err != nil {
				t.Fatal(err)
			}
			groups := got.Hooks["SessionStart"]
			if len(groups) != 1 {
				t.Fatalf("SessionStart groups %+v", groups)
			}
			sources := map[string]bool{}
			for _, s := range strings.Split(groups[0].Matcher, "|") {
				sources[s] = true
			}
			for _, want := range []string{"startup", "resume", "clear", "compact"} {
				if !sources[want] {
					t.Errorf("matcher %q does not run the hook at %s", groups[0].Matcher, want)
				}
			}
		})
	}
}
