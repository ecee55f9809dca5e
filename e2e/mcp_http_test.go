package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// The README's team section registers the team server's /mcp over HTTP
// with a write token, in each agent's own words. These run those words
// with the real CLIs against a real `tally serve` whose store holds
// tokens: the agent connects with a write token, and not with another.

// teamServer is `tally serve` on a store holding a write and a read token.
type teamServer struct {
	mcp, write, read string
}

func serveWithTokens(t *testing.T) teamServer {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "tally.db")
	env := testhome.Environ(filepath.Join(dir, "home"))
	token := func(scope string) string {
		cmd := exec.Command(tallyBin, "token", "create", "--scope", scope, "--name", scope, "--db", db)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("token create --scope %s: %v", scope, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return lines[len(lines)-1]
	}
	s := teamServer{write: token("write"), read: token("read")}
	s.mcp = startServe(t, env, "--db", db, "--claude-dir", filepath.Join(dir, "claude")) + "mcp"
	return s
}

// agentSays runs an agent CLI in home with env and returns what it
// printed.
func agentSays(t *testing.T, home string, env []string, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = home
	cmd.Env = append(testhome.Environ(home, "TERM=dumb", "NO_COLOR=1"), env...)
	timer := time.AfterFunc(90*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("%s %s: %v", filepath.Base(bin), strings.Join(args, " "), err)
	}
	return string(out)
}

func TestServe_MCPOverHTTPWithAWriteToken_ClaudeCode(t *testing.T) {
	bin := claudeBin(t)
	s := serveWithTokens(t)
	for _, c := range []struct {
		token, want string
	}{{s.write, "✔ Connected"}, {s.read, "✘ Failed to connect"}} {
		home := t.TempDir()
		env := []string{"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude")}
		agentSays(t, home, env, bin, "mcp", "add", "--transport", "http", "--scope", "user", "tally", s.mcp, "--header", "Authorization: Bearer "+c.token)
		if got := agentSays(t, home, env, bin, "mcp", "list"); !strings.Contains(got, "tally: "+s.mcp+" (HTTP) - "+c.want) {
			t.Errorf("claude mcp list with the %s token:\n%s\nwant %q", scopeOf(c.token, s), got, c.want)
		}
	}
}

func TestServe_MCPOverHTTPWithAWriteToken_GeminiCLI(t *testing.T) {
	bin := geminiBin(t)
	s := serveWithTokens(t)
	// The README's settings.json: httpUrl, and the token read from the
	// environment when the settings are ($TALLY_TOKEN), not written down.
	settings := `{
  "security": {"folderTrust": {"enabled": false}},
  "mcpServers": {
    "tally": {
      "httpUrl": "` + s.mcp + `",
      "headers": {"Authorization": "Bearer $TALLY_TOKEN"}
    }
  }
}`
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		token, want string
	}{{s.write, "- Connected"}, {s.read, "- Disconnected"}} {
		env := []string{"GEMINI_CLI_HOME=" + home, "TALLY_TOKEN=" + c.token}
		if got := agentSays(t, home, env, bin, "mcp", "list"); !strings.Contains(got, "tally: "+s.mcp+" (http) "+c.want) {
			t.Errorf("gemini mcp list with the %s token:\n%s\nwant %q", scopeOf(c.token, s), got, c.want)
		}
	}
}

// Codex's `mcp list` does not connect: what is checked is that the README's
// command writes the config the README shows.
func TestServe_MCPOverHTTPWithAWriteToken_CodexConfig(t *testing.T) {
	bin := codexBin(t)
	s := serveWithTokens(t)
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	agentSays(t, home, []string{"CODEX_HOME=" + codexHome}, bin, "mcp", "add", "tally", "--url", s.mcp, "--bearer-token-env-var", "TALLY_TOKEN")
	got, err := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "[mcp_servers.tally]\nurl = \"" + s.mcp + "\"\nbearer_token_env_var = \"TALLY_TOKEN\"\n"
	if !strings.Contains(string(got), want) {
		t.Errorf("config.toml:\n%s\nwant it to hold:\n%s", got, want)
	}
}

func scopeOf(token string, s teamServer) string {
	if token == s.write {
		return "write"
	}
	return "read"
}
