package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests run the real Claude Code against a scripted model, with
// Tally set up by `tally setup claude`, and read what the model was sent.
// They need the claude binary: TALLY_CLAUDE_BIN, or claude on PATH
// (scripts/deps-agents installs the version the captures were made with).
// With TALLY_E2E_SAVE=DIR each scenario's request log, transcript, hook
// log and settings are saved under DIR/<scenario>/: that is how
// hook/testdata/e2e was made.

func claudeBin(t *testing.T) string { return agentBin(t, "claude", "TALLY_CLAUDE_BIN", "Claude Code") }

// agentBin is the agent CLI cmd the tests run: the one env names, else cmd
// on PATH, else the one scripts/deps-agents installs; without any, the
// test is skipped, saying how to get it.
func agentBin(t *testing.T, cmd, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(cmd); err == nil {
		return p
	}
	if p, err := filepath.Abs("../.agents/node_modules/.bin/" + cmd); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("the real %s is not installed: set %s or put %s on PATH (scripts/deps-agents installs it); skipping", name, env, cmd)
	return ""
}

// claudeRun is one scenario: a home, a Claude config dir, a work dir, a
// store and a scripted model of its own.
type claudeRun struct {
	t                             *testing.T
	bin, name                     string
	home, config, work, db, state string
	model                         *fakeModel
	env                           []string
	// runs are the stream-json outputs of the claude runs, in order.
	runs []string
}

func newClaudeRun(t *testing.T, name string, s script, env ...string) *claudeRun {
	dir := t.TempDir()
	c := &claudeRun{t: t, bin: claudeBin(t), name: name, home: filepath.Join(dir, "home"), work: filepath.Join(dir, "work"),
		db: filepath.Join(dir, "tally.db"), state: filepath.Join(dir, "state"), model: newFakeModel(t, s), env: env}
	c.config = filepath.Join(c.home, ".claude")
	for _, d := range []string{c.config, c.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(c.save)
	return c
}

func (c *claudeRun) environ() []string {
	return append([]string{
		"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "LANG=C.UTF-8",
		"HOME=" + c.home, "CLAUDE_CONFIG_DIR=" + c.config,
		"ANTHROPIC_BASE_URL=" + c.model.srv.URL, "ANTHROPIC_API_KEY=test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"TALLY_DB=" + c.db, "XDG_STATE_HOME=" + c.state,
	}, c.env...)
}

// setup runs `tally setup claude` into the scenario's home.
func (c *claudeRun) setup(args ...string) string {
	c.t.Helper()
	return tallySetup(c.t, "claude", c.environ(), args...)
}

// tallySetup runs `tally setup agent` with the built binary as the one the
// hooks call, in the environment env, and returns what it printed.
func tallySetup(t *testing.T, agent string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tallyBin, append([]string{"setup", agent, "--tally", tallyBin}, args...)...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tally setup %s: %v\n%s", agent, err, out)
	}
	return string(out)
}

// claude runs `claude -p` in the work dir and returns its stream-json. It
// waits as long as the run takes: a loaded machine makes a run slow, not
// wrong (the test's own -timeout bounds a run that hangs).
func (c *claudeRun) claude(args ...string) string {
	c.t.Helper()
	cmd := exec.CommandContext(c.t.Context(), c.bin, append(args, "--output-format", "stream-json", "--verbose",
		"--model", "claude-sonnet-4-5", "--permission-mode", "acceptEdits")...)
	cmd.Dir, cmd.Env = c.work, c.environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	c.runs = append(c.runs, out.String())
	if err != nil {
		c.t.Fatalf("claude %v: %v\n%s\n%s", args, err, errb.String(), out.String())
	}
	return out.String()
}

// settings writes Tally's settings file (config.toml) in the scenario's
// home, where the hooks read it.
func (c *claudeRun) settings(toml string) {
	c.t.Helper()
	path := filepath.Join(c.home, ".config", "tally", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(toml), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

// session is the id of the scenario's session (its transcript's name).
func (c *claudeRun) session() string {
	c.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(c.config, "projects", "*", "*.jsonl"))
	if len(paths) != 1 {
		c.t.Fatalf("transcripts: %v", paths)
	}
	return strings.TrimSuffix(filepath.Base(paths[0]), ".jsonl")
}

func (c *claudeRun) save() {
	dir := os.Getenv("TALLY_E2E_SAVE")
	if dir == "" || c.t.Skipped() {
		return
	}
	out := filepath.Join(dir, c.name)
	os.RemoveAll(out)
	os.MkdirAll(out, 0o755)
	c.model.save(c.t, filepath.Join(out, "requests.jsonl"))
	paths, _ := filepath.Glob(filepath.Join(c.config, "projects", "*", "*.jsonl"))
	for _, p := range paths {
		copyFile(c.t, p, filepath.Join(out, "transcript.jsonl"))
	}
	copyFile(c.t, filepath.Join(c.config, "settings.json"), filepath.Join(out, "settings.json"))
	copyFile(c.t, filepath.Join(c.state, "tally", "tally.log"), filepath.Join(out, "tally.log"))
	for i, r := range c.runs {
		if err := os.WriteFile(filepath.Join(out, "run"+itoa(i+1)+".stream.jsonl"), []byte(r), 0o644); err != nil {
			c.t.Error(err)
		}
	}
}

func copyFile(t *testing.T, src, dst string) {
	b, err := os.ReadFile(src)
	if err != nil {
		return
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Error(err)
	}
}

// continuedRequest is the first agent-loop request after the compaction:
// the one continuing from the summary.
func continuedRequest(t *testing.T, reqs []map[string]any) string {
	t.Helper()
	for _, r := range reqs {
		msgs, _ := r["messages"].([]any)
		if strings.Contains(userText(msgs, 0), continued) && !strings.Contains(lastUserText(msgs), compactionPrompt) {
			js, _ := json.Marshal(r["messages"])
			return string(js)
		}
	}
	t.Fatalf("no request continued after the compaction (%d agent-loop requests)", len(reqs))
	return ""
}

var todoScript = script{
	Turns: [][]block{
		{{Text: "I'll plan this with a todo list."}, {Tool: "ToolSearch", Input: map[string]any{"query": "select:TodoWrite", "max_results": 1}}},
		{{Tool: "TodoWrite", Input: map[string]any{"todos": []map[string]string{
			{"content": "Write greeting module", "status": "in_progress", "activeForm": "Writing greeting module"},
			{"content": "Add unit test", "status": "pending", "activeForm": "Adding unit test"},
			{"content": "Update README", "status": "pending", "activeForm": "Updating README"}}}}},
		{{Tool: "Write", Input: map[string]any{"file_path": "greet.py", "content": "def greet(name):\n    return f\"Hello, {name}!\"\n"}}},
		{{Tool: "TodoWrite", Input: map[string]any{"todos": []map[string]string{
			{"content": "Write greeting module", "status": "completed", "activeForm": "Writing greeting module"},
			{"content": "Add unit test", "status": "in_progress", "activeForm": "Adding unit test"},
			{"content": "Update README", "status": "pending", "activeForm": "Updating README"}}}}},
	},
	Final:      "The greeting module is written; the test and the README are next.",
	AfterFinal: "Continuing with the unit test.",
}

const todoPrompt = "Create greet.py with a greet(name) function, add a test and document it in the README. Keep a todo list."

func TestRealClaude_compactionGivesBackOnlyTheUnfinishedItems(t *testing.T) {
	c := newClaudeRun(t, "claude-todowrite-compact", todoScript, "CLAUDE_CODE_ENABLE_TASKS=false")
	c.setup("--enable-todo-tools")
	c.claude("-p", todoPrompt)
	id := c.session()
	compact := c.claude("-p", "/compact", "--resume", id)
	if !strings.Contains(compact, `"compact_boundary"`) {
		t.Fatalf("no compaction:\n%s", compact)
	}
	c.claude("-p", "what next?", "--resume", id)
	checkTodoCompaction(t, c.model.requests())
}

// checkTodoCompaction: the first request after the compaction gives the
// model its unfinished TodoWrite items and names no finished one.
func checkTodoCompaction(t *testing.T, reqs []map[string]any) {
	t.Helper()
	checkCompaction(t, reqs, []string{"SessionStart hook additional context", "[in progress] Add unit test", "[pending] Update README"},
		[]string{"Write greeting module"})
}

func checkCompaction(t *testing.T, reqs []map[string]any, unfinished, finished []string) {
	t.Helper()
	sent := continuedRequest(t, reqs)
	for _, want := range unfinished {
		if !strings.Contains(sent, want) {
			t.Errorf("the first request after the compaction lacks %q", want)
		}
	}
	for _, done := range finished {
		if strings.Contains(sent, done) {
			t.Errorf("the first request after the compaction names the finished %q", done)
		}
	}
}

var tasksScript = script{
	Turns: [][]block{
		{{Text: "I'll track this with tasks, and the release steps in Tally's list."},
			{Tool: "ToolSearch", Input: map[string]any{"query": "select:TaskCreate,TaskUpdate,mcp__tally__TaskCreate,mcp__tally__TaskUpdate", "max_results": 5}}},
		{{Tool: "TaskCreate", Input: map[string]any{"subject": "Write greeting module", "description": "Create greet.py.", "activeForm": "Writing greeting module"}},
			{Tool: "TaskCreate", Input: map[string]any{"subject": "Add unit test", "description": "Add test_greet.py.", "activeForm": "Adding unit test"}},
			{Tool: "TaskCreate", Input: map[string]any{"subject": "Update README", "description": "Document greet().", "activeForm": "Updating README"}}},
		{{Tool: "TaskUpdate", Input: map[string]any{"taskId": "1", "status": "in_progress"}},
			{Tool: "TaskUpdate", Input: map[string]any{"taskId": "3", "addBlockedBy": []string{"2"}}}},
		{{Tool: "mcp__tally__TaskCreate", Input: map[string]any{"subject": "Draft the release notes"}},
			{Tool: "mcp__tally__TaskCreate", Input: map[string]any{"subject": "Tag the release"}}},
		{{Tool: "TaskUpdate", Input: map[string]any{"taskId": "1", "status": "completed"}},
			{Tool: "TaskUpdate", Input: map[string]any{"taskId": "2", "status": "in_progress"}},
			{Tool: "mcp__tally__TaskUpdate", Input: map[string]any{"taskId": "1", "status": "completed"}}},
	},
	Final:      "The module is written and the release notes drafted; the test is next.",
	AfterFinal: "Continuing with the unit test.",
}

func TestRealClaude_compactionGivesBackTasksAndTheTallyList(t *testing.T) {
	c := newClaudeRun(t, "claude-tasks-tally-compact", tasksScript)
	c.setup("--enable-todo-tools")
	c.claude("-p", "Create greet.py, add a test and document it, then prepare the release. Track the work with tasks.")
	id := c.session()
	c.claude("-p", "/compact", "--resume", id)
	c.claude("-p", "what next?", "--resume", id)
	checkTasksCompaction(t, c.model.requests(), id)
}

// checkTasksCompaction: the first request after the compaction gives back
// the open Task* items, the blocked one with its blocker, and the open
// items of the session's Tally list, which `tally mcp` kept under the
// session's own name; no finished item of either.
func checkTasksCompaction(t *testing.T, reqs []map[string]any, session string) {
	t.Helper()
	checkCompaction(t, reqs, []string{
		"#2 [in progress] Add unit test", "#3 [blocked] Update README (waits on #2 Add unit test)",
		`Tally task list \"claude-` + session + `\"`, "#2 [pending] Tag the release",
	}, []string{"Write greeting module", "Draft the release notes"})
}

var stopScript = script{
	Turns: [][]block{
		{{Text: "I'll plan this with a todo list."}, {Tool: "ToolSearch", Input: map[string]any{"query": "select:TodoWrite", "max_results": 1}}},
		{{Tool: "TodoWrite", Input: map[string]any{"todos": []map[string]string{
			{"content": "Write greeting module", "status": "in_progress", "activeForm": "Writing greeting module"},
			{"content": "Add unit test", "status": "pending", "activeForm": "Adding unit test"}}}}},
	},
	Final: "I'll stop here for now.",
}

func TestRealClaude_stopGuardBlocksThenLetsTheAgentStop(t *testing.T) {
	c := newClaudeRun(t, "claude-stop-guard", stopScript, "CLAUDE_CODE_ENABLE_TASKS=false")
	c.setup("--enable-todo-tools", "--guard-stop")
	// The guard lets the third stop through because two were refused
	// within its window (5 minutes): a window of a day keeps that true
	// however long a loaded machine takes over the three runs.
	c.settings("[hooks]\nstop_window = \"24h\"\n")
	c.claude("-p", todoPrompt)
	if n := refusals(c.model.requests()); n != 1 {
		t.Fatalf("%d requests carried the refusal after the first stop, want 1", n)
	}
	id := c.session()
	c.claude("-p", "go on", "--resume", id)
	c.claude("-p", "go on", "--resume", id)
	checkStopGuard(t, c.model.requests(), c.runs)
}

const refusal = "Your lists still have unfinished items that nothing blocks"

func refusals(reqs []map[string]any) int {
	n := 0
	for _, r := range reqs {
		msgs, _ := r["messages"].([]any)
		if strings.Contains(lastUserText(msgs), refusal) {
			n++
		}
	}
	return n
}

// checkStopGuard: over three stops within minutes, the first two are
// refused with the unfinished items in the next request, each refusal is
// followed by a stop the agent is allowed, and the third stop is let
// through: the guard never traps the agent.
func checkStopGuard(t *testing.T, reqs []map[string]any, runs []string) {
	t.Helper()
	if n := refusals(reqs); n != 2 {
		t.Errorf("%d refusals over three stops within minutes, want 2", n)
	}
	for _, r := range reqs {
		msgs, _ := r["messages"].([]any)
		if last := lastUserText(msgs); strings.Contains(last, refusal) {
			for _, want := range []string{"[in progress] Write greeting module", "[pending] Add unit test"} {
				if !strings.Contains(last, want) {
					t.Errorf("the refusal lacks %q:\n%s", want, last)
				}
			}
		}
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	for i, out := range runs {
		if !strings.Contains(out, `"subtype":"success"`) {
			t.Errorf("run %d: the agent did not end its turn:\n%s", i+1, out)
		}
	}
}

// The recorded runs (hook/testdata/e2e, made by the tests above with
// TALLY_E2E_SAVE) are checked with the same rules on every test run, with
// or without the real Claude Code on the machine.

const recorded = "../hook/testdata/e2e/"

func recordedRuns(t *testing.T, name string) []string {
	t.Helper()
	paths, _ := filepath.Glob(recorded + name + "/run*.stream.jsonl")
	var runs []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, string(b))
	}
	return runs
}

func recordedSession(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(recorded + name + "/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var line struct{ SessionID string }
	for _, l := range bytes.Split(b, []byte("\n")) {
		if json.Unmarshal(l, &line) == nil && line.SessionID != "" {
			return line.SessionID
		}
	}
	t.Fatal("no session id in the recorded transcript")
	return ""
}

func TestRecordedClaude(t *testing.T) {
	t.Run("compaction of a TodoWrite list", func(t *testing.T) {
		reqs := loadRequests(t, recorded+"claude-todowrite-compact/requests.jsonl")
		checkTodoCompaction(t, reqs)
		// Against Claude Code's own record of the list: the newTodos of
		// the last TodoWrite result in its transcript.
		sent := continuedRequest(t, reqs)
		for _, todo := range lastNewTodos(t, recorded+"claude-todowrite-compact/transcript.jsonl") {
			given := strings.Contains(sent, "] "+todo.Content)
			if open := todo.Status != "completed"; given != open {
				t.Errorf("%q (%s): given back %v", todo.Content, todo.Status, given)
			}
		}
	})
	t.Run("compaction of Task* and the Tally list", func(t *testing.T) {
		name := "claude-tasks-tally-compact"
		checkTasksCompaction(t, loadRequests(t, recorded+name+"/requests.jsonl"), recordedSession(t, name))
	})
	t.Run("stop guard", func(t *testing.T) {
		checkStopGuard(t, loadRequests(t, recorded+"claude-stop-guard/requests.jsonl"), recordedRuns(t, "claude-stop-guard"))
	})
}

type todo struct{ Content, Status string }

// lastNewTodos is the list as Claude Code recorded it after the last
// TodoWrite call of a transcript (toolUseResult.newTodos).
func lastNewTodos(t *testing.T, path string) []todo {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var last []todo
	for _, l := range bytes.Split(b, []byte("\n")) {
		var line struct {
			ToolUseResult struct{ NewTodos []todo } `json:"toolUseResult"`
		}
		if json.Unmarshal(l, &line) == nil && len(line.ToolUseResult.NewTodos) > 0 {
			last = line.ToolUseResult.NewTodos
		}
	}
	if len(last) == 0 {
		t.Fatalf("%s: no TodoWrite result", path)
	}
	return last
}
