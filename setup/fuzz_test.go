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
		if _, err := installHooks(doc, "settings.json", "claude", claudeHooks, Options{Tally: "/bin/tally", GuardStop: true}); err != nil {
			return
		}
		out := doc.bytes()
		var v map[string]any
		if err := json.Unmarshal(stripComments(out), &v); err != nil {
			t.Fatalf("edited file does not read back: %v\n%s", err, out)
		}
	})
}
