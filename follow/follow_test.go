package follow

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/acp"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/normalize"
	"github.com/tallyhq/tally/termstyle"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const captured = "../testdata/fixtures/captured/"

func streamOpts() normalize.Options {
	return normalize.Options{
		Agent: normalize.AgentAuto,
		Adapters: map[string]tally.StreamReader{
			"claude": claude.New(claude.Options{ConfigDir: "/nonexistent"}),
			"codex":  codex.New(codex.Options{Home: "/nonexistent"}),
			"acp":    acp.New(),
		},
		Now: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
	}
}

func plain(t *testing.T, in []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := Run(context.Background(), bytes.NewReader(in), &out, Options{Stream: streamOpts(), Mode: ModePlain}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestRun_plainGolden: with no terminal, the list is printed once per
// change. Reviewed by eye against the captures' own lists.
func TestRun_plainGolden(t *testing.T) {
	for name, rel := range map[string]string{
		"codex-exec": "codex-0.169.0/update-plan-resume/exec-json.stdout.jsonl",
		"acp-gemini": "gemini-cli-0.61.0/acp-write-todos/acp/agent-stdout.jsonl",
		"claude":     "claude-code-2.1.330/todowrite/stream-json.stdout.jsonl",
	} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join(captured, rel))
			if err != nil {
				t.Fatal(err)
			}
			got := plain(t, in)
			file := filepath.Join("testdata", name+".golden")
			if *update {
				os.WriteFile(file, []byte(got), 0o644)
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("differs from %s:\n%s", file, got)
			}
			if strings.Contains(got, "\x1b") {
				t.Error("plain output holds escape sequences")
			}
		})
	}
}

const (
	codexA      = `{"type":"item.started","item":{"id":"item_1","type":"todo_list","items":[{"text":"a1","completed":false},{"text":"a2","completed":false}]}}`
	codexAdone  = `{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[{"text":"a1","completed":true},{"text":"a2","completed":false}]}}`
	codexEmpty  = `{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[]}}`
	codexTurnOK = `{"type":"turn.completed","usage":{}}`
)

func TestRun_lifecycle(t *testing.T) {
	t.Run("turn end keeps the final list as it was", func(t *testing.T) {
		got := plain(t, []byte(strings.Join([]string{codexA, codexAdone, codexTurnOK}, "\n")))
		if n := strings.Count(got, "Plan (codex)"); n != 2 {
			t.Errorf("%d lists printed, want 2 (turn end prints nothing):\n%s", n, got)
		}
		if !strings.HasSuffix(got, "✓ a1\n◻ a2\n\n") {
			t.Errorf("last list is not [✓ a1, ◻ a2]:\n%s", got)
		}
	})
	t.Run("an empty list clears", func(t *testing.T) {
		got := plain(t, []byte(strings.Join([]string{codexA, codexEmpty}, "\n")))
		if !strings.HasSuffix(got, "Plan (codex): cleared\n\n") {
			t.Errorf("no clear:\n%s", got)
		}
	})
	t.Run("runtime progress gives way to the model's plan", func(t *testing.T) {
		tool := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c%d","title":"Read file","status":"in_progress"}}}`
		plan := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"Refactor","priority":"high","status":"in_progress"}]}}}`
		got := plain(t, []byte(strings.Join([]string{fmtf(tool, 1), plan, fmtf(tool, 2)}, "\n")))
		want := "Tool calls (acp/runtime): 0/1 done\n◼ Read file\n\nPlan (acp): 0/1 done\n◼ Refactor\n\n"
		if got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("a list the stream repeats unchanged is printed once", func(t *testing.T) {
		got := plain(t, []byte(strings.Join([]string{codexA, codexA, codexAdone, codexAdone}, "\n")))
		if n := strings.Count(got, "Plan (codex)"); n != 2 {
			t.Errorf("%d lists printed, want 2 (one per drawing that changed):\n%s", n, got)
		}
	})
	t.Run("every agent's open item is drawn as pending, as show draws it", func(t *testing.T) {
		for _, rel := range []string{"codex-0.169.0/update-plan-resume/exec-json.stdout.jsonl", "claude-code-2.1.330/todowrite/stream-json.stdout.jsonl"} {
			in, err := os.ReadFile(filepath.Join(captured, rel))
			if err != nil {
				t.Fatal(err)
			}
			if got := plain(t, in); !strings.Contains(got, "\n◻ ") || strings.ContainsAny(got, "⏳✅❌📋") {
				t.Errorf("%s: an open item is not ◻, or a mark of another set is drawn:\n%s", rel, got)
			}
		}
	})
	t.Run("other output passes through", func(t *testing.T) {
		got := plain(t, []byte("Reading prompt from stdin...\n"+codexA+"\nwarning: {not json\n"))
		if !strings.HasPrefix(got, "Reading prompt from stdin...\nPlan") || !strings.HasSuffix(got, "\nwarning: {not json\n") {
			t.Errorf("got\n%s", got)
		}
	})
}

func fmtf(format string, n int) string { return strings.Replace(format, "%d", string(rune('0'+n)), 1) }

// TestRun_terminalRowsFitTheWidthInColour: on a terminal every row of the
// list, colours and wide markers included, is cut to one cell less than the
// width, so none wraps (a wrapped row could not be erased), and a colour
// cut into is closed.
func TestRun_terminalRowsFitTheWidthInColour(t *testing.T) {
	long := `{"type":"item.started","item":{"id":"item_1","type":"todo_list","items":[` +
		`{"text":"Write the migration that moves every legacy order into the new schema","completed":true},` +
		`{"text":"検証スクリプトを書いて全ての注文が移行されたことを確認する","completed":false}]}}`
	var out bytes.Buffer
	err := Run(context.Background(), strings.NewReader(long+"\n"), &out,
		Options{Stream: streamOpts(), Mode: ModeTerminal, Width: 40, Height: 24})
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(rows) != 3 {
		t.Fatalf("want a header and two items, got %q", rows)
	}
	for _, row := range rows {
		if w := termstyle.Width(row); w > 39 {
			t.Errorf("row is %d cells on a 40-cell terminal: %q", w, row)
		}
		if strings.Count(row, "\x1b[0m") < strings.Count(row, "\x1b[")-strings.Count(row, "\x1b[0m") {
			t.Errorf("a colour is left open: %q", row)
		}
	}
	if !strings.Contains(rows[1], "✓\x1b[0m \x1b[32mWrite the migration") || !strings.HasSuffix(termstyle.Strip(rows[2]), "…") {
		t.Errorf("rows:\n%s", strings.Join(rows, "\n"))
	}
}

// A sub-agent's list is headed by its name (the description of the Agent
// call that started it), not its hex id.
func TestRun_subAgentListIsHeadedByItsName(t *testing.T) {
	in, err := os.ReadFile(filepath.Join(captured, "claude-code-2.1.330/tasks-subagent/stream-json.stdout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := plain(t, in)
	if !strings.Contains(out, "Plan (claude · Audit string helpers): ") || strings.Contains(out, "claude/a1930ad") {
		t.Errorf("sub-agent list not headed by its name:\n%s", out)
	}
}
