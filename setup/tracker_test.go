package setup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// trackerOn reads Gemini CLI's experimental.taskTracker as it would.
func trackerOn(t *testing.T, path string) bool {
	t.Helper()
	var s struct {
		Experimental struct{ TaskTracker bool } `json:"experimental"`
	}
	if err := json.Unmarshal(stripComments(read(t, path)), &s); err != nil {
		t.Fatal(err)
	}
	return s.Experimental.TaskTracker
}

// TestGemini_enableTaskTracker: --enable-task-tracker turns Gemini CLI's
// task tracker on (Gemini 3 models get no write_todos: it is their list);
// a second run changes nothing; uninstall turns off only what setup turned
// on, leaving the file as it was, and keeps a tracker the user turned on.
func TestGemini_enableTaskTracker(t *testing.T) {
	t.Run("set, once, and removed by uninstall", func(t *testing.T) {
		p := home(t, nil)
		settings := filepath.Join(p.GeminiDir, "settings.json")
		run(t, "gemini", p, Options{})
		orig := read(t, settings)
		if trackerOn(t, settings) {
			t.Fatal("the tracker is on without --enable-task-tracker")
		}
		run(t, "gemini", p, Options{EnableTaskTracker: true})
		if !trackerOn(t, settings) {
			t.Fatalf("settings:\n%s", read(t, settings))
		}
		if again := run(t, "gemini", p, Options{EnableTaskTracker: true}); again.Changed() {
			t.Error("a second run changes the settings")
		}
		run(t, "gemini", p, Options{Uninstall: true})
		if _, err := os.Stat(settings); err == nil && trackerOn(t, settings) {
			t.Errorf("uninstall left the tracker on:\n%s", read(t, settings))
		}
		run(t, "gemini", p, Options{})
		if got := read(t, settings); !bytes.Equal(got, orig) {
			t.Errorf("settings after uninstall and setup:\n%s\nwere:\n%s", got, orig)
		}
	})
	t.Run("the user's own tracker is kept on uninstall", func(t *testing.T) {
		p := home(t, nil)
		settings := filepath.Join(p.GeminiDir, "settings.json")
		os.MkdirAll(p.GeminiDir, 0o700)
		if err := os.WriteFile(settings, []byte(`{"experimental": {"taskTracker": true}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		run(t, "gemini", p, Options{EnableTaskTracker: true})
		run(t, "gemini", p, Options{Uninstall: true})
		if !trackerOn(t, settings) {
			t.Errorf("uninstall turned off the user's own tracker:\n%s", read(t, settings))
		}
	})
}
