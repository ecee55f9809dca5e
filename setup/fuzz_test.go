package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSettings feeds any bytes to the settings editor as a comment-allowing
// file: it refuses or edits, never panics, and what it writes is a file
// the agent can read back.
func FuzzSettings(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.json")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseJSON("settings.json", data, true, "Gemini CLI")
		if err != nil {
			return
		}
		if _, err := installHooks(doc, "settings.json", "gemini", geminiHooks, hookTimeoutMillis, Options{Tally: "/bin/tally", GuardStop: true}); err != nil {
			return
		}
		out := doc.bytes()
		var v map[string]any
		if err := json.Unmarshal(stripComments(out), &v); err != nil {
			t.Fatalf("edited file does not read back: %v\n%s", err, out)
		}
	})
}

// FuzzCodexConfig: whatever config.toml holds, setup refuses it or writes
// a file that parses and runs Tally's server, the rest kept.
func FuzzCodexConfig(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.toml")
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte("x = \"\"\"\n[mcp_servers.tally]\n\"\"\"\n"))
	f.Add([]byte("[mcp_servers.tally]\ncommand = \"/bin/tally\"\nargs = [\"serve\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{Tally: "/bin/tally", RemoteApprovals: true}, {Tally: "/bin/tally", Uninstall: true}} {
			trust := map[string]string{"/h/hooks.json:permission_request:0:0": "sha256:ab"}
			if o.Uninstall {
				trust = nil
			}
			e, notes, err := editCodexConfig(path, o, trust)
			if err != nil || !e.Changed() {
				continue
			}
			if len(notes) > 0 {
				// A server named tally that is not Tally's is left as it
				// is; what else changed must still parse.
				if _, err := codexServers(e.After); err != nil {
					t.Fatalf("%v\n%s", err, e.After)
				}
				continue
			}
			if err := checkCodexConfig(path, e.After, map[bool]*codexServer{false: {Command: "/bin/tally"}, true: nil}[o.Uninstall]); err != nil {
				t.Fatalf("%v\n%s", err, e.After)
			}
		}
	})
}
