package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The same with the real Gemini CLI (0.61.0: hooks of its own names; see
// setup/gemini.go): TALLY_GEMINI_BIN, or gemini on PATH, or the one
// scripts/deps-agents installs. Gemini CLI runs `-p` sessions against the
// scripted Gemini API above (GOOGLE_GEMINI_BASE_URL), in yolo mode as
// write_todos needs outside a terminal.

func geminiBin(t *testing.T) string { return agentBin(t, "gemini", "TALLY_GEMINI_BIN", "Gemini CLI") }

type geminiRun struct {
	t                             *testing.T
	bin, name                     string
	home, work, db, state, gemini string
	model                         *fakeGemini
	runs                          []string
}

// geminiSettings are the settings of a fresh user that the scripted model
// needs: an API key login, no telemetry, no update check, no trust prompt.
const geminiSettings = `{
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "security": {"folderTrust": {"enabled": false}, "auth": {"selectedType": "gemini-api-key"}}
}
`

func newGeminiRun(t *testing.T, name string, s script) *geminiRun {
	dir := t.TempDir()
	g := &geminiRun{t: t, bin: geminiBin(t), name: name, home: filepath.Join(dir, "home"), work: filepath.Join(dir, "work"),
		db: filepath.Join(dir, "tally.db"), state: filepath.Join(dir, "state"),
		model: newFakeGemini(t, s, "<state_snapshot>greet.py is written; the test and the README remain.</state_snapshot>")}
	g.gemini = filepath.Join(g.home, ".gemini")
	for _, d := range []string{g.gemini, g.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(g.gemini, "settings.json"), []byte(geminiSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.save)
	return g
}

func (g *geminiRun) environ() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "LANG=C.UTF-8", "HOME=" + g.home,
		"GOOGLE_GEMINI_BASE_URL=" + g.model.srv.URL, "GEMINI_API_KEY=test", "GEMINI_CLI_NO_RELAUNCH=true",
		"TALLY_DB=" + g.db, "XDG_STATE_HOME=" + g.state}
}

func (g *geminiRun) setup(args ...string) {
	g.t.Helper()
	tallySetup(g.t, "gemini", g.environ(), args...)
}

// run runs `gemini -p` in the work dir and returns its stream-json.
func (g *geminiRun) run(args ...string) string {
	g.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, g.bin, append(args, "--output-format", "stream-json", "-m", "gemini-2.5-pro", "--approval-mode", "yolo")...)
	cmd.Dir, cmd.Env = g.work, g.environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	g.runs = append(g.runs, out.String())
	if err != nil {
		g.t.Fatalf("gemini %v: %v\n%s\n%s", args, err, errb.String(), out.String())
	}
	return out.String()
}

func (g *geminiRun) save() {
	dir := os.Getenv("TALLY_E2E_SAVE")
	if dir == "" || g.t.Skipped() {
		return
	}
	out := filepath.Join(dir, g.name)
	os.RemoveAll(out)
	os.MkdirAll(out, 0o755)
	g.model.save(g.t, filepath.Join(out, "requests.jsonl"))
	// A resume after a compression writes the session on in a chat file
	// of its own: transcript.jsonl is the first, transcript-2.jsonl the next.
	chats, _ := filepath.Glob(filepath.Join(g.gemini, "tmp", "*", "chats", "session-*.jsonl"))
	for i, p := range chats {
		name := "transcript.jsonl"
		if i > 0 {
			name = "transcript-" + itoa(i+1) + ".jsonl"
		}
		copyFile(g.t, p, filepath.Join(out, name))
	}
	copyFile(g.t, filepath.Join(g.gemini, "settings.json"), filepath.Join(out, "settings.json"))
	copyFile(g.t, filepath.Join(g.state, "tally", "tally.log"), filepath.Join(out, "tally.log"))
	for i, r := range g.runs {
		if err := os.WriteFile(filepath.Join(out, "run"+itoa(i+1)+".stream.jsonl"), []byte(r), 0o644); err != nil {
			g.t.Error(err)
		}
	}
}

var geminiTodos = func(statuses ...string) map[string]any {
	titles := []string{"Write greet.py with greet(name)", "Add a unit test", "Update README"}
	var todos []map[string]string
	for i, s := range statuses {
		todos = append(todos, map[string]string{"description": titles[i], "status": s})
	}
	return map[string]any{"todos": todos}
}

var geminiScript = script{
	Turns: [][]block{
		{{Text: "I'll break this into steps and track them."}, {Tool: "write_todos", Input: geminiTodos("in_progress", "pending", "pending")}},
		{{Tool: "write_file", Input: map[string]any{"file_path": "greet.py", "content": "def greet(name):\n    return f\"Hello, {name}!\"\n"}}},
		{{Tool: "write_todos", Input: geminiTodos("completed", "in_progress", "pending")}},
	},
	Final: "The greeting module is written; the test and the README are next.",
}

const geminiPrompt = "Create greet.py with a greet(name) function, add a test and document it in the README. Keep a todo list."

// geminiGivenBack: the request answering prompt carries, in its last user
// entry, the unfinished items and no finished one, in the words of when.
func geminiGivenBack(t *testing.T, reqs []map[string]any, prompt, when string) {
	t.Helper()
	for _, r := range reqs {
		last := lastUserParts(r)
		if !strings.Contains(last, prompt) {
			continue
		}
		if !strings.Contains(last, when) {
			t.Fatalf("the request answering %q was given nothing back:\n%s", prompt, last)
		}
		for _, want := range []string{"[in progress] Add a unit test", "[pending] Update README"} {
			if !strings.Contains(last, want) {
				t.Errorf("it lacks %q:\n%s", want, last)
			}
		}
		if strings.Contains(last, "Write greet.py") {
			t.Errorf("it names the finished item:\n%s", last)
		}
		return
	}
	t.Fatalf("no request answered %q (%d agent-loop requests)", prompt, len(reqs))
}

func TestRealGemini_resumeGivesBackOnlyTheUnfinishedItems(t *testing.T) {
	g := newGeminiRun(t, "gemini-resume", geminiScript)
	g.setup()
	g.run("-p", geminiPrompt)
	g.run("-p", "what next?", "--resume", "latest")
	geminiGivenBack(t, g.model.requests(), "what next?", "when this session last ran")
}

// Gemini CLI 0.61 runs `-p /compress` in the background and sends
// "/compress" to the model as a prompt meanwhile: its PreCompress hook
// races that prompt's BeforeAgent (the flake under -race, where the
// scripted model answers slower). The compaction's items come back at the
// first prompt after PreCompress: "/compress" itself when PreCompress came
// first, else the next one, after a resume.
func TestRealGemini_compressGivesBackOnlyTheUnfinishedItemsAtTheNextPrompt(t *testing.T) {
	g := newGeminiRun(t, "gemini-compress", geminiScript)
	g.setup()
	g.run("-p", geminiPrompt)
	g.run("-p", "/compress", "--resume", "latest")
	g.run("-p", "what next?", "--resume", "latest")
	checkGeminiCompress(t, g.model.requests())
}

// checkGeminiCompress: of the requests answering "/compress" and the
// prompt after, exactly one gives the compaction's items back, the
// unfinished ones only.
func checkGeminiCompress(t *testing.T, reqs []map[string]any) {
	t.Helper()
	const when = "before the context was compacted"
	given := 0
	for _, prompt := range []string{"/compress", "what next?"} {
		for _, r := range reqs {
			if last := lastUserParts(r); strings.Contains(last, prompt) {
				if strings.Contains(last, when) {
					given++
					geminiGivenBack(t, []map[string]any{r}, prompt, when)
				}
				break
			}
		}
	}
	if given != 1 {
		t.Errorf("the compaction's items came back %d times, want once at the first prompt after it", given)
	}
}

const geminiRefusal = "Your lists still have unfinished items that nothing blocks"

// TestRealGemini_stopGuardDeniesOnceThenLetsTheAgentStop: AfterAgent's
// denial is the model's next prompt, with the unfinished items; Gemini
// CLI then calls AfterAgent again with stop_hook_active, and the guard
// lets the agent stop.
func TestRealGemini_stopGuardDeniesOnceThenLetsTheAgentStop(t *testing.T) {
	g := newGeminiRun(t, "gemini-stop-guard", geminiScript)
	g.setup("--guard-stop")
	out := g.run("-p", geminiPrompt)
	checkGeminiStopGuard(t, g.model.requests(), out)
}

func checkGeminiStopGuard(t *testing.T, reqs []map[string]any, out string) {
	t.Helper()
	refused := 0
	for _, r := range reqs {
		if last := lastUserParts(r); strings.Contains(last, geminiRefusal) {
			refused++
			for _, want := range []string{"[in progress] Add a unit test", "[pending] Update README"} {
				if !strings.Contains(last, want) {
					t.Errorf("the refusal lacks %q:\n%s", want, last)
				}
			}
		}
	}
	if refused != 1 {
		t.Errorf("%d requests carried the refusal, want 1", refused)
	}
	if !strings.Contains(out, `"type":"result"`) || !strings.Contains(out, `"status":"success"`) {
		t.Errorf("the agent did not end its turn:\n%s", out)
	}
}

// The recorded runs (hook/testdata/e2e/gemini-*, made by the tests above
// with TALLY_E2E_SAVE) are checked with the same rules on every test run,
// with or without the real Gemini CLI on the machine.
func TestRecordedGemini(t *testing.T) {
	t.Run("resume", func(t *testing.T) {
		geminiGivenBack(t, loadRequests(t, recorded+"gemini-resume/requests.jsonl"), "what next?", "when this session last ran")
	})
	t.Run("compress", func(t *testing.T) {
		reqs := loadRequests(t, recorded+"gemini-compress/requests.jsonl")
		checkGeminiCompress(t, reqs)
		// Against Gemini CLI's own record of the list: the last
		// write_todos call its chat record holds.
		var given string
		for _, r := range reqs {
			if last := lastUserParts(r); strings.Contains(last, "before the context was compacted") {
				given = last
			}
		}
		for _, todo := range lastWriteTodos(t, recorded+"gemini-compress/transcript.jsonl") {
			got := strings.Contains(given, "] "+todo.Description)
			if open := todo.Status != "completed"; got != open {
				t.Errorf("%q (%s): given back %v", todo.Description, todo.Status, got)
			}
		}
	})
	t.Run("stop guard", func(t *testing.T) {
		out, err := os.ReadFile(recorded + "gemini-stop-guard/run1.stream.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		checkGeminiStopGuard(t, loadRequests(t, recorded+"gemini-stop-guard/requests.jsonl"), string(out))
	})
}

type geminiTodo struct{ Description, Status string }

// lastWriteTodos is the list the last write_todos call of a Gemini CLI
// chat record set, as the record's toolCalls hold it.
func lastWriteTodos(t *testing.T, path string) []geminiTodo {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var last []geminiTodo
	for _, l := range bytes.Split(b, []byte("\n")) {
		var m struct {
			ToolCalls []struct {
				Name string
				Args struct{ Todos []geminiTodo }
			} `json:"toolCalls"`
		}
		if json.Unmarshal(l, &m) != nil {
			continue
		}
		for _, c := range m.ToolCalls {
			if c.Name == "write_todos" {
				last = c.Args.Todos
			}
		}
	}
	if len(last) == 0 {
		t.Fatalf("%s: no write_todos call", path)
	}
	return last
}
