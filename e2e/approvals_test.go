package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The real Claude Code (in -p mode, its default permission mode) asks to
// run a Bash command that needs the user's permission; Tally's
// PermissionRequest hook (tally setup claude --remote-approvals) shows the
// request on the board (tally serve's API), and the decision posted there
// reaches the agent: allowed, the command runs; denied with a message, the
// model reads the message; with no decision, the agent's own outcome (in
// -p mode, a refusal) comes within the bound. Truth is the agent's own
// record: the file the command wrote, and what the scripted model was sent.

const proofCommand = "echo x > proof.txt"

var approvalScript = script{
	Turns: [][]block{{{Tool: "Bash", Input: map[string]any{"command": proofCommand, "description": "Write the proof file"}}}},
	Final: "Done.",
}

// serveBoard runs tally serve on the scenario's store and returns its URL.
func (c *claudeRun) serveBoard() string {
	c.t.Helper()
	return c.serveBoardWith(c.environ())
}

// serveBoardWith runs tally serve on the scenario's store in env, with
// more arguments, and returns its URL.
func (c *claudeRun) serveBoardWith(env []string, args ...string) string {
	c.t.Helper()
	return startServe(c.t, env, append([]string{"--db", c.db, "--claude-dir", c.config}, args...)...)
}

// claudeAsking starts `claude -p` in its default permission mode; the
// channel gets its stream-json and error when it ends.
func (c *claudeRun) claudeAsking(prompt string) <-chan error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := exec.CommandContext(ctx, c.bin, "-p", prompt, "--output-format", "stream-json", "--verbose",
		"--model", "claude-sonnet-4-5", "--permission-mode", "default")
	cmd.Dir, cmd.Env = c.work, c.environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		cancel()
		c.t.Fatal(err)
	}
	go func() {
		defer cancel()
		err := cmd.Wait()
		c.runs = append(c.runs, out.String())
		if err != nil {
			err = fmt.Errorf("%w\n%s\n%s", err, errb.String(), out.String())
		}
		done <- err
	}()
	return done
}

type boardRequest struct {
	ID, Session, Tool, Summary, Verdict, Message, By, From string
	Open                                                   bool
	AskedAt                                                time.Time
}

type boardSession struct {
	ID       string
	Requests []boardRequest
}

func boardSessions(t *testing.T, url string) []boardSession {
	t.Helper()
	res, err := http.Get(url + "api/sessions")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ Sessions []boardSession }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.Sessions
}

// waitRequest polls the board until a session shows an open request; it
// returns it and when it was first seen.
func waitRequest(t *testing.T, url string) (boardRequest, time.Time) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, s := range boardSessions(t, url) {
			for _, r := range s.Requests {
				if r.Open {
					return r, time.Now()
				}
			}
		}
	}
	t.Fatal("no request showed on the board within 30 s")
	return boardRequest{}, time.Time{}
}

// decideOnBoard posts a decision as the board's own page does.
func decideOnBoard(t *testing.T, url string, r boardRequest, verdict, message string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"session": r.Session, "verdict": verdict, "message": message})
	req, _ := http.NewRequest(http.MethodPost, url+"api/requests/"+r.ID, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", strings.TrimSuffix(url, "/"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK {
		t.Fatalf("deciding %s: %d %s", r.ID, res.StatusCode, b)
	}
}

// toolResult is the result of the Bash call the model was sent, and
// whether it was an error.
func toolResult(t *testing.T, reqs []map[string]any) (string, bool) {
	t.Helper()
	for _, r := range slices.Backward(reqs) {
		msgs, _ := r["messages"].([]any)
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			blocks, _ := mm["content"].([]any)
			for _, b := range blocks {
				blk, _ := b.(map[string]any)
				if blk["type"] != "tool_result" {
					continue
				}
				isErr, _ := blk["is_error"].(bool)
				text := ""
				switch c := blk["content"].(type) {
				case string:
					text = c
				case []any:
					for _, x := range c {
						if xm, _ := x.(map[string]any); xm != nil {
							s, _ := xm["text"].(string)
							text += s
						}
					}
				}
				return text, isErr
			}
		}
	}
	t.Fatal("the model was sent no tool result")
	return "", false
}

func TestRealClaude_permissionAllowedOnTheBoardRunsTheCommand(t *testing.T) {
	c := newClaudeRun(t, "claude-remote-allow", approvalScript)
	c.setup("--remote-approvals")
	url := c.serveBoard()
	done := c.claudeAsking("write the proof file")
	r, seen := waitRequest(t, url)
	if r.Tool != "Bash" || r.Summary != proofCommand {
		t.Errorf("the board shows %+v", r)
	}
	t.Logf("request on the board %v after the agent asked", seen.Sub(r.AskedAt))
	before := len(c.model.requests())
	clicked := time.Now()
	decideOnBoard(t, url, r, "allow", "")
	for len(c.model.requests()) == before && time.Since(clicked) < 30*time.Second {
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the model had the command's result %v after the decision", time.Since(clicked))
	if err := <-done; err != nil {
		t.Fatalf("claude: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(c.work, "proof.txt")); err != nil || string(b) != "x\n" {
		t.Fatalf("the command did not run: %q, %v", b, err)
	}
	if text, isErr := toolResult(t, c.model.requests()); isErr {
		t.Errorf("the model was sent an error: %q", text)
	}
	for _, s := range boardSessions(t, url) {
		if s.ID == r.Session && (len(s.Requests) == 0 || s.Requests[0].Verdict != "allow" || s.Requests[0].By != "the local board") {
			t.Errorf("the card shows %+v", s.Requests)
		}
	}
}

func TestRealClaude_permissionDeniedOnTheBoardTellsTheModelWhy(t *testing.T) {
	c := newClaudeRun(t, "claude-remote-deny", approvalScript)
	c.setup("--remote-approvals")
	url := c.serveBoard()
	done := c.claudeAsking("write the proof file")
	r, _ := waitRequest(t, url)
	const why = "Write it under /tmp instead."
	decideOnBoard(t, url, r, "deny", why)
	if err := <-done; err != nil {
		t.Fatalf("claude: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.work, "proof.txt")); err == nil {
		t.Error("the command ran though denied")
	}
	if text, isErr := toolResult(t, c.model.requests()); !isErr || !strings.Contains(text, why) {
		t.Errorf("the model was sent %q (error %v), want the denial's message", text, isErr)
	}
}

func TestRealClaude_noDecisionLeavesTheAgentsOwnOutcomeWithinTheBound(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[hooks]\napproval_wait = \"3s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := newClaudeRun(t, "claude-remote-none", approvalScript, "TALLY_CONFIG="+cfg)
	c.setup("--remote-approvals")
	start := time.Now()
	if err := <-c.claudeAsking("write the proof file"); err != nil {
		t.Fatalf("claude: %v", err)
	}
	took := time.Since(start)
	if _, err := os.Stat(filepath.Join(c.work, "proof.txt")); err == nil {
		t.Error("the command ran with no decision: nothing is allowed by default")
	}
	text, isErr := toolResult(t, c.model.requests())
	if !isErr {
		t.Errorf("the model was sent %q, want Claude Code's own refusal", text)
	}
	log, _ := os.ReadFile(filepath.Join(c.state, "tally", "tally.log"))
	if !strings.Contains(string(log), "no decision within 3s") {
		t.Errorf("the hook's log says:\n%s", log)
	}
	if took < 3*time.Second || took > 60*time.Second {
		t.Errorf("claude took %v; the hook waits 3 s, then the agent goes on", took)
	}
	t.Logf("claude ended %v after it started, with %q", took, text)
}
