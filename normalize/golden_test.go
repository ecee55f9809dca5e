package normalize

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/acp"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const captured = "../testdata/fixtures/captured/"

// fixedNow stamps events of formats without timestamps in golden files.
var fixedNow = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }

// adapters are the stream formats the golden files are in.
func adapters() map[string]tally.StreamReader {
	return map[string]tally.StreamReader{
		"claude": claude.New(claude.Options{ConfigDir: "/nonexistent"}),
		"codex":  codex.New(codex.Options{Home: "/nonexistent"}),
		"gemini": gemini.New(gemini.Options{Home: "/nonexistent"}),
		"acp":    acp.New(),
	}
}

type golden struct {
	name, input, agent string
}

var goldens = []golden{
	{"claude-todowrite", "claude-code-2.1.330/todowrite/stream-json.stdout.jsonl", "claude"},
	{"claude-tasks", "claude-code-2.1.330/tasks/stream-json.stdout.jsonl", "claude"},
	{"codex-exec", "codex-0.169.0/update-plan-resume/exec-json.stdout.jsonl", "codex"},
	{"codex-exec-edge-cases", "codex-0.169.0/update-plan-edge-cases/exec-json.stdout.jsonl", "codex"},
	{"gemini-stream-json", "gemini-cli-0.61.0/write-todos/stream-json.stdout.jsonl", "gemini"},
	{"acp-gemini", "gemini-cli-0.61.0/acp-write-todos/acp/agent-stdout.jsonl", "acp"},
}

func normalizeFile(t *testing.T, path, agent string) (out, errOut []byte) {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var o, e bytes.Buffer
	if err := Run(context.Background(), in, &o, &e, Options{Agent: agent, Adapters: adapters(), Now: fixedNow}); err != nil {
		t.Fatalf("Run: %v\nstderr: %s", err, e.Bytes())
	}
	return o.Bytes(), e.Bytes()
}

// TestRun_golden: the output for each real capture, read in review. Both
// the named agent and auto-detection must give it.
func TestRun_golden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			path := filepath.Join(captured, g.input)
			got, errOut := normalizeFile(t, path, g.agent)
			if len(errOut) > 0 {
				t.Errorf("stderr for a clean capture: %s", errOut)
			}
			auto, _ := normalizeFile(t, path, AgentAuto)
			if !bytes.Equal(got, auto) {
				t.Errorf("--agent auto gives a different output than --agent %s", g.agent)
			}
			file := filepath.Join("testdata", "golden", g.name+".jsonl")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (go test -update rewrites it):\n%s", file, got)
			}
		})
	}
}

func must(tb testing.TB, rel string) *os.File {
	tb.Helper()
	f, err := os.Open(filepath.Join(captured, rel))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}
