package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The same with the real Codex (0.169.0 has Claude Code's hooks, but no
// Notification): TALLY_CODEX_BIN, or codex on PATH. Codex runs hooks only
// once trusted; the tests pass --dangerously-bypass-hook-trust, as a user's
// trust would. Codex compacts by itself past model_auto_compact_token_limit,
// which the tests set low.

func codexBin(t *testing.T) string { return agentBin(t, "codex", "TALLY_CODEX_BIN", "Codex") }

type codexRun struct {
	t                                     *testing.T
	bin, name                             string
	home, codexHome, work, db, state, out string
	model                                 *fakeResponses
}

func newCodexRun(t *testing.T, name string, s script, compactLimit int) *codexRun {
	dir := t.TempDir()
	c := &codexRun{t: t, bin: codexBin(t), name: name, home: filepath.Join(dir, "home"), codexHome: filepath.Join(dir, "codex"),
		work: filepath.Join(dir, "work"), db: filepath.Join(dir, "tally.db"), state: filepath.Join(dir, "state"),
		model: newFakeResponses(t, s, "Summary: greet.py is written; the test and the README remain.")}
	for _, d := range []string{c.home, c.codexHome, c.work} {
		os.MkdirAll(d, 0o755)
	}
	limit := ""
	if compactLimit > 0 {
		limit = "model_auto_compact_token_limit = " + itoa(compactLimit) + "\n"
	}
	config := `model = "gpt-5.5"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
` + limit + `
[model_providers.scripted]
name = "Scripted fake model"
base_url = "` + c.model.srv.URL + `/v1"
wire_api = "responses"
requires_openai_auth = false
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[tools.update_plan]
enabled = true

[feedback]
enabled = false
`
	if err := os.WriteFile(filepath.Join(c.codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.save)
	return c
}

func (c *codexRun) environ() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "LANG=C.UTF-8", "HOME=" + c.home, "CODEX_HOME=" + c.codexHome,
		"TALLY_DB=" + c.db, "XDG_STATE_HOME=" + c.state}
}

func (c *codexRun) setup(args ...string) {
	c.t.Helper()
	tallySetup(c.t, "codex", c.environ(), args...)
}

func (c *codexRun) exec(prompt string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, "exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", prompt)
	cmd.Dir, cmd.Env = c.work, c.environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	c.out = out.String()
	if err != nil {
		c.t.Fatalf("codex exec: %v\n%s\n%s", err, errb.String(), c.out)
	}
}

func (c *codexRun) save() {
	dir := os.Getenv("TALLY_E2E_SAVE")
	if dir == "" || c.t.Skipped() {
		return
	}
	out := filepath.Join(dir, c.name)
	os.RemoveAll(out)
	os.MkdirAll(out, 0o755)
	c.model.save(c.t, filepath.Join(out, "requests.jsonl"))
	rollouts, _ := filepath.Glob(filepath.Join(c.codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	for _, p := range rollouts {
		copyFile(c.t, p, filepath.Join(out, "rollout.jsonl"))
	}
	copyFile(c.t, filepath.Join(c.codexHome, "hooks.json"), filepath.Join(out, "hooks.json"))
	copyFile(c.t, filepath.Join(c.state, "tally", "tally.log"), filepath.Join(out, "tally.log"))
	if err := os.WriteFile(filepath.Join(out, "exec.stdout.jsonl"), []byte(c.out), 0o644); err != nil {
		c.t.Error(err)
	}
}

// inputText joins the text of a request's input items.
func inputText(r map[string]any) []string {
	items, _ := r["input"].([]any)
	var out []string
	for _, x := range items {
		it, _ := x.(map[string]any)
		var b strings.Builder
		parts, _ := it["content"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			if s, ok := pm["text"].(string); ok {
				b.WriteString(s)
			}
		}
		if s, ok := it["output"].(string); ok {
			b.WriteString(s)
		}
		out = append(out, b.String())
	}
	return out
}

var codexPlan = func(statuses ...string) block {
	steps := []string{"Write greet.py with greet(name)", "Add a unit test", "Update README"}
	var plan []map[string]string
	for i, s := range statuses {
		plan = append(plan, map[string]string{"step": steps[i], "status": s})
	}
	return block{Tool: "update_plan", Input: map[string]any{"plan": plan}}
}

var codexCompactScript = script{
	Turns: [][]block{
		{{Text: "A short plan first."}, codexPlan("in_progress", "pending", "pending")},
		{codexPlan("completed", "in_progress", "pending")},
		{{Text: "Working on the test."}, {Tool: "exec_command", Input: map[string]any{"cmd": "echo testing"}}},
	},
	Final: "The module is done; the test is next.",
}

func TestRealCodex_compactionGivesBackOnlyTheUnfinishedItems(t *testing.T) {
	c := newCodexRun(t, "codex-compact", codexCompactScript, 1150)
	c.setup("--guard-stop")
	c.exec("Create greet.py, a test and a README; keep a plan.")
	checkCodexCompaction(t, c.model.requests())
}

// checkCodexCompaction: after Codex compacted the conversation past the
// second plan update, the next request gives the model its unfinished
// plan steps and not the finished one.
func checkCodexCompaction(t *testing.T, reqs []map[string]any) {
	t.Helper()
	var given string
	for _, r := range reqs {
		if r["agentLoop"] != true {
			continue
		}
		for _, text := range inputText(r) {
			if strings.HasPrefix(text, "Your lists as they stood before the context was compacted") {
				given = text // the newest wins
			}
		}
	}
	if given == "" {
		t.Fatal("no request after a compaction gave the plan back")
	}
	for _, want := range []string{"[in progress] Add a unit test", "[pending] Update README"} {
		if !strings.Contains(given, want) {
			t.Errorf("the plan given back lacks %q:\n%s", want, given)
		}
	}
	if strings.Contains(given, "Write greet.py") {
		t.Errorf("the plan given back names the finished step:\n%s", given)
	}
}

var codexStopScript = script{
	Turns: [][]block{{{Text: "A short plan first."}, codexPlan("in_progress", "pending")}},
	Final: "I'll stop here for now.",
}

func TestRealCodex_stopGuardBlocksThenLetsTheAgentStop(t *testing.T) {
	c := newCodexRun(t, "codex-stop-guard", codexStopScript, 0)
	c.setup("--guard-stop")
	c.exec("Create greet.py and a test; keep a plan.")
	checkCodexStopGuard(t, c.model.requests(), c.out)
}

// checkCodexStopGuard: the stop is refused once, the refusal (listing the
// open steps) reaches the model as a hook prompt, and the agent's next
// stop ends the turn.
func checkCodexStopGuard(t *testing.T, reqs []map[string]any, stdout string) {
	t.Helper()
	n, loops := 0, 0
	for _, r := range reqs {
		if r["agentLoop"] != true {
			continue
		}
		loops++
		texts := inputText(r)
		if last := texts[len(texts)-1]; strings.Contains(last, refusal) {
			n++
			for _, want := range []string{"[in progress] Write greet.py with greet(name)", "[pending] Add a unit test"} {
				if !strings.Contains(last, want) {
					t.Errorf("the refusal lacks %q:\n%s", want, last)
				}
			}
		}
	}
	if n != 1 || loops != 3 {
		t.Errorf("%d refusals in %d model calls; want 1 in 3 (plan, stop, stop again)", n, loops)
	}
	if !strings.Contains(stdout, `"type":"turn.completed"`) {
		t.Errorf("the turn did not complete:\n%s", stdout)
	}
}

func TestRecordedCodex(t *testing.T) {
	t.Run("compaction of an update_plan plan", func(t *testing.T) {
		checkCodexCompaction(t, loadRequests(t, recorded+"codex-compact/requests.jsonl"))
	})
	t.Run("stop guard", func(t *testing.T) {
		out, err := os.ReadFile(recorded + "codex-stop-guard/exec.stdout.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		checkCodexStopGuard(t, loadRequests(t, recorded+"codex-stop-guard/requests.jsonl"), string(out))
	})
}
