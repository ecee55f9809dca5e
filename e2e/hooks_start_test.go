package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The SessionStart hook with the real Claude Code and Codex: `tally setup`
// registers it for every start of a context (startup, resume, clear,
// compact), and what it gives — the plan protocol, where the plan stands,
// the unfinished items — reaches the model once per context.

// planTask is a plan folder's task T001 at step S2, as an agent following
// the protocol leaves it.
const planTask = `id: T001
name: Greeting module
goal: greet(name) works, is tested and documented
status: active
steps:
  - id: S1
    name: Write greet.py
    done: greet("World") returns "Hello, World!"
    status: complete
  - id: S2
    name: Add the unit test
    done: the test passes
    status: pending
`

// writePlan gives the project in work a plan folder (docs/por) holding
// planTask.
func writePlan(t *testing.T, work string) {
	t.Helper()
	dir := filepath.Join(work, "docs", "por", "T001-greet")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "task.yaml"), []byte(planTask), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hookContexts are the SessionStart hook's texts a request carries, in
// order: Claude Code puts each in a system reminder of its own.
func hookContexts(r map[string]any) []string {
	js, _ := json.Marshal(r["messages"])
	var msgs []any
	json.Unmarshal(js, &msgs)
	var out []string
	const mark = "SessionStart hook additional context: "
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] != "user" {
			continue
		}
		for _, part := range strings.Split(messageText(mm), "<system-reminder>\n") {
			if rest, ok := strings.CutPrefix(part, mark); ok {
				out = append(out, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "</system-reminder>")))
			}
		}
	}
	return out
}

const (
	protocolHead = "## Task Management Protocol"
	planStands   = `Where the plan stands: T001 S2 next (task "Greeting module", step "Add the unit test"); 0 of 1 tasks complete.`
)

var helloScript = script{Final: "Hello."}

// A fresh session (SessionStart startup) in a project with a plan folder
// gets the protocol and where the plan stands; one in a project without
// gets nothing from the hook.
func TestRealClaude_aFreshSessionGetsThePlanProtocolWhereThereIsAPlan(t *testing.T) {
	c := newClaudeRun(t, "claude-plan-startup", helloScript)
	writePlan(t, c.work)
	c.setup()
	c.claude("-p", "hello")
	checkStartup(t, c.model.requests())

	bare := newClaudeRun(t, "claude-startup-no-plan", helloScript)
	bare.setup()
	bare.claude("-p", "hello")
	for _, r := range bare.model.requests() {
		if got := hookContexts(r); len(got) > 0 {
			t.Errorf("no plan folder, yet the hook said %q", got)
		}
	}
}

// checkStartup: the first request carries the protocol and the plan's
// standing from the SessionStart hook, once.
func checkStartup(t *testing.T, reqs []map[string]any) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	got := hookContexts(reqs[0])
	if len(got) != 1 || !strings.HasPrefix(got[0], protocolHead) || !strings.Contains(got[0], planStands) {
		t.Errorf("the first request's SessionStart context: %q", got)
	}
	// tally mcp's instructions (the server is registered with
	// --no-protocol) do not repeat it.
	if n := strings.Count(requestText(reqs[0]), protocolHead); n != 1 {
		t.Errorf("the first request carries the protocol %d times, want once", n)
	}
}

// requestText is a request's messages as JSON text.
func requestText(r map[string]any) string {
	js, _ := json.Marshal(r["messages"])
	return string(js)
}

// /compact then --resume (the case): SessionStart resume gives the
// unfinished items back, the compaction that follows before any model call
// keeps them, and the first request after carries them once, the protocol
// once (tally mcp's instructions leave it out) and where the plan stands
// once.
func TestRealClaude_compactThenResumeGivesEachBackOnce(t *testing.T) {
	c := newClaudeRun(t, "claude-plan-compact-resume", todoScript, "CLAUDE_CODE_ENABLE_TASKS=false")
	writePlan(t, c.work)
	c.setup("--enable-todo-tools")
	c.claude("-p", todoPrompt)
	id := c.session()
	c.claude("-p", "/compact", "--resume", id)
	c.claude("-p", "what next?", "--resume", id)
	checkOnceAfterCompaction(t, c.model.requests())
}

func checkOnceAfterCompaction(t *testing.T, reqs []map[string]any) {
	t.Helper()
	continuedRequest(t, reqs) // fails when there is none
	var after map[string]any
	for _, r := range reqs {
		msgs, _ := r["messages"].([]any)
		if strings.Contains(userText(msgs, 0), continued) && !strings.Contains(lastUserText(msgs), compactionPrompt) {
			after = r
			break
		}
	}
	joined := strings.Join(hookContexts(after), "\n\n")
	for what, n := range map[string]int{
		"the unfinished items": strings.Count(joined, "Your lists as they stood"),
		"the protocol":         strings.Count(joined, protocolHead),
		"the plan's standing":  strings.Count(joined, planStands),
		"the item in progress": strings.Count(joined, "[in progress] Add unit test"),
	} {
		if n != 1 {
			t.Errorf("the first request after the compaction carries %s %d times, want once:\n%s", what, n, joined)
		}
	}
	if strings.Contains(joined, "Write greeting module") {
		t.Errorf("a finished item is given back:\n%s", joined)
	}
	if n := strings.Count(requestText(after), protocolHead); n != 1 {
		t.Errorf("the first request after the compaction carries the protocol %d times in all, want once", n)
	}
}

func TestRecordedClaude_sessionStart(t *testing.T) {
	t.Run("startup in a planned project", func(t *testing.T) {
		checkStartup(t, loadRequests(t, recorded+"claude-plan-startup/requests.jsonl"))
	})
	t.Run("codex startup in a planned project", func(t *testing.T) {
		checkCodexStartup(t, loadRequests(t, recorded+"codex-plan-startup/requests.jsonl"))
	})
	t.Run("compact then resume", func(t *testing.T) {
		checkOnceAfterCompaction(t, loadRequests(t, recorded+"claude-plan-compact-resume/requests.jsonl"))
	})
}

// The same with the real Codex: `codex exec` in a project with a plan
// folder fires SessionStart with source startup, and the first model call
// carries the protocol and where the plan stands.
func TestRealCodex_aFreshSessionGetsThePlanProtocolWhereThereIsAPlan(t *testing.T) {
	c := newCodexRun(t, "codex-plan-startup", helloScript, 0)
	writePlan(t, c.work)
	c.setup()
	c.exec("hello")
	checkCodexStartup(t, c.model.requests())
}

func checkCodexStartup(t *testing.T, reqs []map[string]any) {
	t.Helper()
	for _, r := range reqs {
		if r["agentLoop"] != true {
			continue
		}
		n := 0
		for _, text := range inputText(r) {
			if strings.Contains(text, planStands) && strings.Contains(text, protocolHead) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("the first model call carries the protocol with the plan's standing %d times, want once:\n%q", n, inputText(r))
		}
		return
	}
	t.Fatal("no model call")
}
