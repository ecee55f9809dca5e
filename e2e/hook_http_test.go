package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// Claude Code's "http" hook type posts the JSON a command hook reads on
// stdin to a URL and reads the answer from the response body. tally serve
// answers it at POST /api/hook/AGENT, behind its token like every write,
// with what `tally hook AGENT` prints for the same call.

const hookRecClaude = "../hook/testdata/claude-2.1.330/todo/"

// hookCall is a recorded Claude Code 2.1.330 payload whose transcript is
// a copy in a Claude config dir of the test's own.
func hookCall(t *testing.T, claudeDir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(hookRecClaude + "transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(hookRecClaude + "payloads/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(claudeDir, "projects", "-work", m["session_id"].(string)+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = path
	out, _ := json.Marshal(m)
	return out
}

// serveHooks starts tally serve with token on a store of its own and
// returns its address.
func serveHooks(t *testing.T, claudeDir, token string) string {
	t.Helper()
	dir := t.TempDir()
	env := testhome.Environ(filepath.Join(dir, "home"), "TALLY_TOKEN="+token, "XDG_STATE_HOME="+filepath.Join(dir, "state"))
	return startServe(t, env, "--db", filepath.Join(dir, "tally.db"), "--claude-dir", claudeDir)
}

// hookOnStdin is what `tally hook claude` prints for payload, on a store
// of its own.
func hookOnStdin(t *testing.T, claudeDir string, payload []byte, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(tallyBin, append([]string{"hook", "claude", "--db", filepath.Join(dir, "tally.db"), "--claude-dir", claudeDir}, args...)...)
	cmd.Env = testhome.Environ(filepath.Join(dir, "home"), "XDG_STATE_HOME="+filepath.Join(dir, "state"))
	cmd.Stdin = bytes.NewReader(payload)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tally hook claude: %v", err)
	}
	return string(out)
}

func postHook(t *testing.T, url string, payload []byte, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestServe_hookOverHTTPAnswersAsTallyHookOnStdin(t *testing.T) {
	const token = "h00k-t0ken"
	claudeDir := filepath.Join(t.TempDir(), "claude")
	compact := hookCall(t, claudeDir, "SessionStart-compact")
	stop := hookCall(t, claudeDir, "Stop")
	url := serveHooks(t, claudeDir, token)
	auth := []string{"Authorization", "Bearer " + token}

	t.Run("a compaction: the same answer as on stdin", func(t *testing.T) {
		want := hookOnStdin(t, claudeDir, compact)
		if !strings.Contains(want, "[in progress] Add unit test") {
			t.Fatalf("tally hook claude answered %q", want)
		}
		code, got := postHook(t, url+"api/hook/claude", compact, auth...)
		if code != http.StatusOK || got != want {
			t.Errorf("%d %q\nwant %q", code, got, want)
		}
	})
	t.Run("the stop guard with ?guard-stop=1: the same refusal as --guard-stop", func(t *testing.T) {
		want := hookOnStdin(t, claudeDir, stop, "--guard-stop")
		if !strings.Contains(want, `"decision":"block"`) {
			t.Fatalf("tally hook claude --guard-stop answered %q", want)
		}
		code, got := postHook(t, url+"api/hook/claude?guard-stop=1", stop, auth...)
		if code != http.StatusOK || got != want {
			t.Errorf("%d %q\nwant %q", code, got, want)
		}
		if code, got := postHook(t, url+"api/hook/claude", stop, auth...); code != http.StatusOK || got != "" {
			t.Errorf("without ?guard-stop: %d %q", code, got)
		}
	})
	t.Run("without the token: refused, and no answer", func(t *testing.T) {
		if code, got := postHook(t, url+"api/hook/claude", compact); code != http.StatusUnauthorized || strings.Contains(got, "Add unit test") {
			t.Errorf("%d %q", code, got)
		}
		if code, got := postHook(t, url+"api/hook/claude", compact, "Authorization", "Bearer wrong"); code != http.StatusUnauthorized || strings.Contains(got, "Add unit test") {
			t.Errorf("wrong token: %d %q", code, got)
		}
	})
	t.Run("from a page on another site, even with the token: refused", func(t *testing.T) {
		code, got := postHook(t, url+"api/hook/claude", compact, append(auth, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")...)
		if code != http.StatusForbidden || strings.Contains(got, "Add unit test") {
			t.Errorf("%d %q", code, got)
		}
	})
	t.Run("garbage: 200 and nothing, as a hook must never break the agent", func(t *testing.T) {
		if code, got := postHook(t, url+"api/hook/claude", []byte("\x00not json"), auth...); code != http.StatusOK || got != "" {
			t.Errorf("%d %q", code, got)
		}
	})
	t.Run("an agent without hooks: 404", func(t *testing.T) {
		if code, _ := postHook(t, url+"api/hook/nobody", compact, auth...); code != http.StatusNotFound {
			t.Errorf("%d", code)
		}
	})
}
