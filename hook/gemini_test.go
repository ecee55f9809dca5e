package hook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/tallyhq/tally/hook"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/gemini"
)

const geminiRec = "testdata/gemini-0.61.0"

// geminiPayload reads a payload the real Gemini CLI 0.61.0 sent.
func geminiPayload(t *testing.T, name string) Event {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(geminiRec, "payloads", name))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := GeminiFormat{}.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ev
}

// geminiList folds the recorded chat record with the Gemini adapter: the
// write_todos list the session had when its hooks ran.
func geminiList(t *testing.T) List {
	t.Helper()
	path := filepath.Join(geminiRec, "transcript.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := gemini.New(gemini.Options{}).NewDecoder(tally.FileInfo{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: path}
	st.Feed(dec, data)
	l := st.Lists[""]
	if l == nil {
		t.Fatal("the recorded chat folds to no list")
	}
	return List{Kind: ListOwn, Items: l.Items()}
}

func TestGeminiFormat_Parse(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(geminiRec, "payloads", "*.json"))
	if len(paths) < 9 {
		t.Fatalf("only %d recorded payloads", len(paths))
	}
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		ev, err := GeminiFormat{}.Parse(b)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		var raw map[string]any
		_ = json.Unmarshal(b, &raw)
		if ev.SessionID != raw["session_id"] || ev.TranscriptPath != raw["transcript_path"] {
			t.Errorf("%s: parsed %+v", p, ev)
		}
	}
	for file, want := range map[string]Event{
		"SessionStart-resume.json":     {Name: SessionStart, Source: SourceResume},
		"BeforeAgent.json":             {Name: UserPromptSubmit},
		"AfterTool-write_todos.json":   {Name: PostToolUse, ToolName: "write_todos"},
		"PreCompress-manual.json":      {Name: PreCompact, Source: SourceManual},
		"PreCompress-auto.json":        {Name: PreCompact, Source: SourceAuto},
		"SessionEnd-exit.json":         {Name: "SessionEnd"},
		"AfterAgent.json":              {Name: Stop},
		"Notification-permission.json": {Name: Notification, NotificationType: PermissionPrompt},
	} {
		ev := geminiPayload(t, file)
		if ev.Name != want.Name || ev.Source != want.Source || ev.NotificationType != want.NotificationType || ev.ToolName != want.ToolName {
			t.Errorf("%s: parsed as %+v, want %+v", file, ev, want)
		}
	}
	if ev := geminiPayload(t, "AfterAgent.json"); ev.LastAssistantMessage == "" || ev.StopHookActive {
		t.Errorf("AfterAgent: %+v", ev)
	}
	if ev := geminiPayload(t, "AfterAgent-retry.json"); !ev.StopHookActive {
		t.Errorf("AfterAgent retry: %+v", ev)
	}
}

// TestDecide_gemini answers payloads the real Gemini CLI 0.61.0 sent,
// against the list its own chat record folds to.
func TestDecide_gemini(t *testing.T) {
	todos := Session{Lists: []List{geminiList(t)}}
	guard := Options{GuardStop: true, Now: t0, OwnReminders: true}

	t.Run("a manual compression gives back only the unfinished items at the next prompt", func(t *testing.T) {
		a, st := Decide(geminiPayload(t, "PreCompress-manual.json"), todos, State{}, Options{Now: t0})
		if !a.Empty() || st.Owed != SourceCompact {
			t.Fatalf("PreCompress answered %+v, state %+v", a, st)
		}
		prompt := geminiPayload(t, "BeforeAgent-compress.json")
		a, st = Decide(prompt, todos, st, Options{Now: t0})
		golden(t, "gemini-compress.json", GeminiFormat{}.Encode(prompt, a))
		if strings.Contains(a.Context, "Write greet.py") || !strings.Contains(a.Context, "[in progress] Add a unit test") {
			t.Errorf("given back:\n%s", a.Context)
		}
		if a, _ := Decide(prompt, todos, st, Options{Now: t0}); a.Context != "" {
			t.Errorf("given back twice for one compression: %q", a.Context)
		}
	})
	t.Run("the lists come back at a tool's result when no prompt comes first", func(t *testing.T) {
		_, st := Decide(geminiPayload(t, "PreCompress-manual.json"), todos, State{}, Options{Now: t0})
		tool := geminiPayload(t, "AfterTool-write_file.json")
		a, _ := Decide(tool, todos, st, Options{Now: t0})
		if !strings.Contains(a.Context, "[pending] Update README") {
			t.Errorf("AfterTool after a compression: %+v", a)
		}
		var out struct {
			Specific struct{ HookEventName, AdditionalContext string } `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(GeminiFormat{}.Encode(tool, a), &out); err != nil || out.Specific.HookEventName != "AfterTool" {
			t.Errorf("answer %+v, %v", out, err)
		}
	})
	t.Run("an automatic compression announcement gives nothing back: Gemini announces one before every model call", func(t *testing.T) {
		_, st := Decide(geminiPayload(t, "PreCompress-auto.json"), todos, State{}, Options{Now: t0})
		if a, _ := Decide(geminiPayload(t, "BeforeAgent.json"), todos, st, Options{Now: t0}); a.Context != "" {
			t.Errorf("given back after an auto announcement: %q", a.Context)
		}
	})
	t.Run("a compression the hooks cannot remember gives nothing back", func(t *testing.T) {
		if a, _ := Decide(geminiPayload(t, "BeforeAgent.json"), todos, State{Unavailable: true, Owed: SourceCompact}, Options{Now: t0}); a.Context != "" {
			t.Errorf("answered %q", a.Context)
		}
	})
	t.Run("resume gives the list back at the next prompt, when Gemini has written the record back", func(t *testing.T) {
		later := Options{Now: t0, ResumeLater: true}
		// At SessionStart the resumed record holds no list yet.
		a, st := Decide(geminiPayload(t, "SessionStart-resume.json"), Session{}, State{}, later)
		if !a.Empty() || st.Owed != SourceResume {
			t.Fatalf("SessionStart answered %+v, state %+v", a, st)
		}
		prompt := geminiPayload(t, "BeforeAgent-compress.json")
		a, st = Decide(prompt, todos, st, later)
		golden(t, "gemini-resume.json", GeminiFormat{}.Encode(prompt, a))
		_, st = Decide(geminiPayload(t, "SessionStart-resume.json"), Session{}, st, later)
		if a, _ := Decide(prompt, todos, st, later); a.Context != "" {
			t.Errorf("a second resume repeated the unchanged list, which the context resumed holds: %q", a.Context)
		}
	})
	// Gemini CLI 0.61 runs `-p /compress` in the background and sends
	// "/compress" as a prompt meanwhile, so its PreCompress may come after
	// that prompt's BeforeAgent: the compaction is then owed when the
	// session is next resumed, and the resume must not take its place.
	t.Run("a compaction still owed is given back after a later resume", func(t *testing.T) {
		later := Options{Now: t0, ResumeLater: true}
		_, st := Decide(geminiPayload(t, "SessionStart-resume.json"), Session{}, State{}, later)
		prompt := geminiPayload(t, "BeforeAgent-compress.json")
		_, st = Decide(prompt, todos, st, later)
		_, st = Decide(geminiPayload(t, "PreCompress-manual.json"), todos, st, later)
		_, st = Decide(geminiPayload(t, "SessionStart-resume.json"), Session{}, st, later)
		a, _ := Decide(geminiPayload(t, "BeforeAgent.json"), todos, st, later)
		if !strings.Contains(a.Context, "before the context was compacted") || !strings.Contains(a.Context, "[in progress] Add a unit test") {
			t.Errorf("the prompt after the resume: %q", a.Context)
		}
	})
	t.Run("a stop with unblocked work left is denied, with the items", func(t *testing.T) {
		ev := geminiPayload(t, "AfterAgent.json")
		a, _ := Decide(ev, todos, State{}, guard)
		golden(t, "gemini-stop-deny.json", GeminiFormat{}.Encode(ev, a))
	})
	t.Run("the retry a denied stop started may stop", func(t *testing.T) {
		if a, _ := Decide(geminiPayload(t, "AfterAgent-retry.json"), todos, State{}, guard); !a.Empty() {
			t.Errorf("answered %+v", a)
		}
	})
	t.Run("a tool waiting for permission marks needs input and prints nothing", func(t *testing.T) {
		ev := geminiPayload(t, "Notification-permission.json")
		a, _ := Decide(ev, todos, State{}, Options{Now: t0})
		if !a.NeedsInput || (GeminiFormat{}).Encode(ev, a) != nil {
			t.Errorf("answered %+v", a)
		}
	})
	t.Run("session end gets no answer", func(t *testing.T) {
		if a, _ := Decide(geminiPayload(t, "SessionEnd-exit.json"), todos, State{}, guard); !a.Empty() {
			t.Errorf("answered %+v", a)
		}
	})
}

func FuzzGeminiFormat(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(geminiRec, "payloads", "*.json"))
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := GeminiFormat{}.Parse(b)
		if err != nil {
			return
		}
		a, _ := Decide(ev, Session{}, State{Owed: SourceCompact}, Options{GuardStop: true})
		out := GeminiFormat{}.Encode(ev, a)
		if out != nil && !json.Valid(out) {
			t.Errorf("invalid JSON answer %q", out)
		}
	})
}
