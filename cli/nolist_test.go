package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// An agent whose log shows it had no todo tool kept no list: show says so,
// and how to give it one, instead of "No todo list yet" — for Claude Code
// on its default model, and Codex without [tools.update_plan].
func TestRun_agentWithoutTodoToolKeptNoList(t *testing.T) {
	codexHome := t.TempDir()
	cx := "../testdata/fixtures/captured/codex-0.169.0/default-config-no-update-plan"
	cfg, err := os.ReadFile(filepath.Join(cx, "harness/config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(codexHome, "sessions"), os.DirFS(filepath.Join(cx, "codex_home/sessions"))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent, hint string
		env         map[string]string
	}{
		{"claude", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1", map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "default-model-no-todo-tools/config")}},
		{"codex", "[tools.update_plan] enabled = true", map[string]string{"CODEX_HOME": codexHome}},
	} {
		t.Run(c.agent, func(t *testing.T) {
			st := newStore(t)
			if code, _, errOut := run(t, st, c.env, "scan"); code != ExitOK {
				t.Fatalf("scan: exit %d: %s", code, errOut)
			}
			_, out, _ := run(t, st, nil, "sessions", "--json")
			var list []tally.Session
			if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
				t.Fatalf("sessions --json: %v\n%s", err, out)
			}
			if s := list[0]; s.ListTools != tally.ListToolsNone || !strings.Contains(s.ListToolsHint, c.hint) {
				t.Errorf("listTools %q, hint %q; want none and %q", s.ListTools, s.ListToolsHint, c.hint)
			}
			_, out, _ = run(t, st, nil, "show", list[0].ID)
			if !strings.Contains(out, "kept no list") || !strings.Contains(out, c.hint) || !strings.Contains(out, "tally mcp") || strings.Contains(out, "No todo list yet") {
				t.Errorf("show:\n%s", out)
			}
		})
	}
}
