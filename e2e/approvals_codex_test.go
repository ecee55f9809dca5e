package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tally setup codex --remote-approvals installs Codex's PermissionRequest
// hook and trusts it in config.toml: the real Codex, asked through its
// app-server (hooks/list, what its /hooks screen shows), lists Tally's
// hook as trusted, and every other hook of Tally's as still for the user
// to review. (codex exec runs with approval policy "never" whatever its
// settings, so no permission is asked there: the request itself was
// checked by hand in Codex's TUI, see docs/formats.md.)
func TestRealCodex_remoteApprovalsTrustsThePermissionHook(t *testing.T) {
	c := newCodexRun(t, "codex-remote-trust", script{Final: "Done."}, 0)
	c.setup("--remote-approvals")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, "app-server")
	cmd.Dir, cmd.Env = c.work, c.environ()
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); cmd.Wait() }()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"tally-e2e","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[` + jsonString(c.work) + `]}}`,
	} {
		io.WriteString(in, m+"\n")
	}
	type hookInfo struct {
		Key, EventName, Command, TrustStatus, CurrentHash string
	}
	var listed []hookInfo
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var msg struct {
			ID     int
			Result struct {
				Data []struct{ Hooks []hookInfo }
			}
		}
		if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.ID == 2 {
			for _, d := range msg.Result.Data {
				listed = append(listed, d.Hooks...)
			}
			break
		}
	}
	want := filepath.Join(c.codexHome, "hooks.json") + ":permission_request:0:0"
	found := false
	for _, h := range listed {
		if !strings.Contains(h.Command, "tally hook codex") {
			continue
		}
		switch {
		case h.Key == want:
			found = true
			if h.TrustStatus != "trusted" {
				t.Errorf("Codex says Tally's PermissionRequest hook is %q (hash %s), want trusted", h.TrustStatus, h.CurrentHash)
			}
		case h.TrustStatus == "trusted":
			t.Errorf("Codex trusts %s, which setup was not asked to trust", h.Key)
		}
	}
	if !found {
		t.Fatalf("Codex lists no %s among %+v", want, listed)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
