package setup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// settingsOf decodes a settings file.
func settingsOf(t *testing.T, path string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(read(t, path), &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// A settings file a dotfiles manager links is written through the link:
// the link stays a link, its target gets the change, the backup is made
// beside the target.
func TestApply_writesThroughALink(t *testing.T) {
	p := home(t, nil)
	dotfiles := filepath.Join(t.TempDir(), "dotfiles", "claude")
	os.MkdirAll(dotfiles, 0o700)
	real := filepath.Join(dotfiles, "settings.json")
	os.WriteFile(real, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o600)
	link := filepath.Join(p.ClaudeDir, "settings.json")
	os.MkdirAll(p.ClaudeDir, 0o700)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	plan := run(t, "claude", p, Options{GuardStop: true})
	if e := plan.Edits[0]; !e.Linked() || e.Target != real {
		t.Errorf("the edit of %s goes to %q, want %s through the link", e.Path, e.Target, real)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got := string(read(t, real)); !strings.Contains(got, "hook claude") || !strings.Contains(got, `"model": "opus"`) {
		t.Errorf("the link's target:\n%s", got)
	}
	if backups, _ := filepath.Glob(real + ".tally-backup-*"); len(backups) != 1 {
		t.Errorf("backups beside the target: %v", backups)
	}
}

// A settings file the user made read-only is refused, before anything is
// written, and left as it was.
func TestPlan_refusesAReadOnlyFile(t *testing.T) {
	p := home(t, map[string]string{"claude-settings-user.json": ".claude/settings.json"})
	settings := filepath.Join(p.ClaudeDir, "settings.json")
	os.Chmod(settings, 0o444)
	before := read(t, settings)
	_, err := p.target("claude").Plan(Options{Tally: tallyBin})
	if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "Nothing was changed") {
		t.Fatalf("Plan: %v", err)
	}
	if fi, _ := os.Stat(settings); fi.Mode().Perm() != 0o444 || !bytes.Equal(read(t, settings), before) {
		t.Errorf("the file changed: %v", fi.Mode())
	}
}

// Another writer changing the file between Plan and Apply keeps its
// change: Apply makes the edit again on the file as it is.
func TestApply_keepsAChangeMadeSincePlan(t *testing.T) {
	p := home(t, nil)
	a, err := p.target("claude").Plan(Options{Tally: tallyBin, EnableTodoTools: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.target("claude").Plan(Options{Tally: tallyBin})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(a, now); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(b, now); err != nil {
		t.Fatal(err)
	}
	got := string(read(t, filepath.Join(p.ClaudeDir, "settings.json")))
	if !strings.Contains(got, todoToolsEnv) || !strings.Contains(got, "hook claude") {
		t.Fatalf("one run's change was lost:\n%s", got)
	}
}

// Setup runs racing on one file each keep their change, every time: here
// one turns the todo tools on, and the other, asking nothing of them,
// must not write back the file as it read it before.
func TestApply_racingRunsLoseNothing(t *testing.T) {
	for round := range 15 {
		p := home(t, nil)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, o := range []Options{{Tally: tallyBin, EnableTodoTools: true}, {Tally: tallyBin}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				plan, err := p.target("claude").Plan(o)
				if err == nil {
					_, err = Apply(plan, now)
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		got := string(read(t, filepath.Join(p.ClaudeDir, "settings.json")))
		if !strings.Contains(got, todoToolsEnv) || strings.Count(got, "hook claude") != 4 {
			t.Fatalf("round %d: one run's change was lost:\n%s", round, got)
		}
	}
}

// Claude Code writes .claude.json holding FILE.lock: setup waits for it,
// then edits the file as Claude Code left it, so neither loses keys.
func TestApply_takesClaudeCodesLock(t *testing.T) {
	p := home(t, nil)
	cfg := p.ClaudeUserConfig
	os.WriteFile(cfg, []byte(`{"numStartups": 1}`), 0o600)
	plan, err := p.target("claude").Plan(Options{Tally: tallyBin})
	if err != nil {
		t.Fatal(err)
	}
	lock := cfg + ".lock"
	if err := os.Mkdir(lock, 0o700); err != nil { // Claude Code is writing
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Apply(plan, now); done <- err }()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Apply did not wait for Claude Code's lock: %v", err)
	default:
	}
	os.WriteFile(cfg, []byte(`{"numStartups": 2, "projects": {"/work": {}}}`), 0o600)
	os.Remove(lock)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	m := settingsOf(t, cfg)
	if m["numStartups"] != float64(2) || m["projects"] == nil || m["mcpServers"] == nil {
		t.Fatalf(".claude.json lost a key: %v", m)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("the lock was left behind: %v", err)
	}
}

// A lock left by a Claude Code that died is old: setup takes it over.
func TestApply_takesOverADeadHoldersLock(t *testing.T) {
	p := home(t, nil)
	lock := p.ClaudeUserConfig + ".lock"
	os.Mkdir(lock, 0o700)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(lock, old, old)
	run(t, "claude", p, Options{})
	if m := settingsOf(t, p.ClaudeUserConfig); m["mcpServers"] == nil {
		t.Fatalf(".claude.json: %v", m)
	}
}

// Uninstall removes exactly what setup added: the user's own
// CLAUDE_CODE_ENABLE_TODO_TOOLS and mcp__tally permission stay, with or
// without --enable-todo-tools; the env entry setup added goes even with a
// plain --uninstall.
func TestUninstall_removesExactlyWhatSetupAdded(t *testing.T) {
	t.Run("the user's own entries stay", func(t *testing.T) {
		p := home(t, nil)
		settings := filepath.Join(p.ClaudeDir, "settings.json")
		os.MkdirAll(p.ClaudeDir, 0o700)
		own := "{\n  \"env\": {\"CLAUDE_CODE_ENABLE_TODO_TOOLS\": \"1\"},\n  \"permissions\": {\"allow\": [\"mcp__tally\"]}\n}\n"
		os.WriteFile(settings, []byte(own), 0o600)
		run(t, "claude", p, Options{EnableTodoTools: true})
		for _, args := range []Options{{Uninstall: true, EnableTodoTools: true}, {Uninstall: true}} {
			plan := run(t, "claude", p, args)
			if got := string(read(t, settings)); got != own {
				t.Fatalf("uninstall %+v:\n%s\nwant the user's file back:\n%s", args, got, own)
			}
			if !strings.Contains(strings.Join(plan.Notes, "\n"), "left as it is") {
				t.Errorf("no word of what was left: %v", plan.Notes)
			}
		}
	})
	t.Run("what setup added goes with a plain uninstall", func(t *testing.T) {
		p := home(t, nil)
		run(t, "claude", p, Options{EnableTodoTools: true})
		run(t, "claude", p, Options{Uninstall: true})
		if got := string(read(t, filepath.Join(p.ClaudeDir, "settings.json"))); strings.Contains(got, todoToolsEnv) || strings.Contains(got, tallyTools) {
			t.Fatalf("left behind:\n%s", got)
		}
	})
}
