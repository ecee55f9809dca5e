package hook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	. "github.com/tallyhq/tally/hook"
)

func TestClaudeFormat_Parse(t *testing.T) {
	t.Run("every recorded payload parses", func(t *testing.T) {
		paths, _ := filepath.Glob(filepath.Join(rec, "*", "payloads", "*.json"))
		if len(paths) < 20 {
			t.Fatalf("only %d recorded payloads", len(paths))
		}
		for _, p := range paths {
			b, _ := os.ReadFile(p)
			ev, err := ClaudeFormat{}.Parse(b)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			var raw map[string]any
			_ = json.Unmarshal(b, &raw)
			if string(ev.Name) != raw["hook_event_name"] || ev.SessionID != raw["session_id"] || ev.TranscriptPath != raw["transcript_path"] {
				t.Errorf("%s: parsed %+v", p, ev)
			}
		}
	})
	t.Run("fields the rules use", func(t *testing.T) {
		if ev := payload(t, "todo/payloads/Stop-active.json"); !ev.StopHookActive || ev.LastAssistantMessage == "" {
			t.Errorf("Stop: %+v", ev)
		}
		if ev := payload(t, "todo/payloads/SessionStart-compact.json"); ev.Source != SourceCompact {
			t.Errorf("SessionStart: %+v", ev)
		}
		if ev := payload(t, "todo/payloads/Notification-idle_prompt.json"); ev.NotificationType != IdlePrompt {
			t.Errorf("Notification: %+v", ev)
		}
	})
	for name, in := range map[string]string{
		"garbage":          "not json at all",
		"an array":         `[1,2]`,
		"no event name":    `{"session_id":"s"}`,
		"no session":       `{"hook_event_name":"Stop"}`,
		"wrong field type": `{"hook_event_name":"Stop","session_id":"s","stop_hook_active":"yes"}`,
		"empty":            ``,
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			if ev, err := (ClaudeFormat{}).Parse([]byte(in)); err == nil {
				t.Errorf("parsed %+v", ev)
			}
		})
	}
}

func TestClaudeFormat_Encode(t *testing.T) {
	ev := Event{Name: PostToolUse}
	if b := (ClaudeFormat{}).Encode(ev, Answer{Active: true, NeedsInput: true}); b != nil {
		t.Errorf("an answer with nothing to read printed %s", b)
	}
	var out map[string]any
	if err := json.Unmarshal(ClaudeFormat{}.Encode(ev, Answer{Context: "x"}), &out); err != nil {
		t.Fatal(err)
	}
	spec, _ := out["hookSpecificOutput"].(map[string]any)
	if spec["hookEventName"] != "PostToolUse" || spec["additionalContext"] != "x" || len(out) != 1 {
		t.Errorf("context answer: %v", out)
	}
}

func FuzzClaudeFormat(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(rec, "*", "payloads", "*.json"))
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := ClaudeFormat{}.Parse(b)
		if err != nil {
			return
		}
		a, _ := Decide(ev, Session{}, State{}, Options{GuardStop: true})
		out := ClaudeFormat{}.Encode(ev, a)
		if out != nil && !json.Valid(out) {
			t.Errorf("invalid JSON answer %q", out)
		}
	})
}
