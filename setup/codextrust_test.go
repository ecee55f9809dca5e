package setup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hash Tally trusts a hook by is the one Codex 0.169 itself computes
// for it (testdata/codex-trust.json, from codex app-server's hooks/list).
func TestCodexHookHash_isCodexsOwn(t *testing.T) {
	b, err := os.ReadFile("testdata/codex-trust.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Hooks []struct {
			HooksJSON, Event, Command, Key, CurrentHash string
			Matcher                                     *string
			Timeout                                     int
		}
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, h := range v.Hooks {
		if got := codexHookHash(h.Event, h.Matcher, hookCommand{Type: "command", Command: h.Command, Timeout: h.Timeout}); got != h.CurrentHash {
			t.Errorf("%s %q: %s, Codex says %s", h.Event, h.Command, got, h.CurrentHash)
		}
		data, _ := json.Marshal(map[string]any{"hooks": map[string]any{h.Event: []any{map[string]any{"matcher": h.Matcher,
			"hooks": []any{map[string]any{"type": "command", "command": h.Command, "timeout": h.Timeout}}}}}})
		if h.Matcher == nil {
			data = bytes.Replace(data, []byte(`"matcher":null,`), nil, 1)
		}
		if h.Event == "PermissionRequest" {
			trust := codexTrusts(h.HooksJSON, data, codexTrusted, Options{Tally: "/usr/local/bin/tally", RemoteApprovals: true})
			if trust[h.Key] != h.CurrentHash || len(trust) != 1 {
				t.Errorf("trusts %v, want %s = %s", trust, h.Key, h.CurrentHash)
			}
		}
	}
}

// --remote-approvals installs Codex's PermissionRequest hook and trusts it
// (that one only); a second run changes nothing; a run without the flag
// takes both away, and uninstall gives config.toml back as it was.
func TestCodex_remoteApprovalsTrustThePermissionHook(t *testing.T) {
	p := home(t, map[string]string{"codex-config.toml": ".codex/config.toml"})
	cfg, hooks := filepath.Join(homeOf(p), ".codex", "config.toml"), filepath.Join(homeOf(p), ".codex", "hooks.json")
	orig := read(t, cfg)
	run(t, "codex", p, Options{RemoteApprovals: true})
	var h struct {
		Hooks map[string][]hookGroup `json:"hooks"`
	}
	if err := json.Unmarshal(read(t, hooks), &h); err != nil {
		t.Fatal(err)
	}
	pr := h.Hooks["PermissionRequest"]
	if len(pr) != 1 || pr[0].Hooks[0].Timeout != 600 {
		t.Fatalf("PermissionRequest hook: %+v", pr)
	}
	key := hooks + ":permission_request:0:0"
	want := `[hooks.state.` + `"` + key + `"]` + "\ntrusted_hash = \"" + codexHookHash("PermissionRequest", nil, pr[0].Hooks[0]) + "\"\n"
	got := string(read(t, cfg))
	if !strings.Contains(got, want) || strings.Count(got, "[hooks.state.") != 1 {
		t.Fatalf("config.toml:\n%s\nwant the trust entry\n%s", got, want)
	}
	if second, err := p.target("codex").Plan(Options{Tally: tallyBin, RemoteApprovals: true}); err != nil || second.Changed() {
		t.Errorf("second run: %v %+v", err, second.Edits)
	}
	run(t, "codex", p, Options{})
	if got := string(read(t, cfg)); strings.Contains(got, "hooks.state") || strings.Contains(string(read(t, hooks)), "PermissionRequest") {
		t.Errorf("a run without --remote-approvals kept the hook or its trust:\n%s", got)
	}
	run(t, "codex", p, Options{RemoteApprovals: true})
	run(t, "codex", p, Options{Uninstall: true})
	if got := read(t, cfg); !bytes.Equal(got, orig) {
		t.Errorf("config.toml after uninstall:\n%s\nwas\n%s", got, orig)
	}
}

// A trust entry of the user's own stays, whatever Tally does.
func TestEditCodexTrust_keepsOtherEntries(t *testing.T) {
	in := "model = \"x\"\n\n[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:user\"\n\n[hooks.state.\"/h/hooks.json:permission_request:1:0\"]\ntrusted_hash = \"sha256:tally\"\n"
	out := string(editCodexTrust([]byte(in), map[string]string{"/h/hooks.json:permission_request:0:0": "sha256:new"}, map[string]bool{"sha256:tally": true}))
	if !strings.Contains(out, "sha256:user") || strings.Contains(out, "sha256:tally") || !strings.Contains(out, "[hooks.state.\"/h/hooks.json:permission_request:0:0\"]\ntrusted_hash = \"sha256:new\"") {
		t.Errorf("got\n%s", out)
	}
}
