package hook_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/tallyhq/tally/hook"
)

// permissionPayload is a PermissionRequest call in the shape Claude Code
// 2.1.330 sends it (checked by hand in -p mode, issue 26: `echo x >
// proof.txt` in the default permission mode); no such call is recorded in
// testdata yet.
const permissionPayload = `{"session_id":"5f0c","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"PermissionRequest",
"tool_name":"Bash","tool_input":{"command":"echo x > proof.txt","description":"Write proof"},
"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"echo:*"}],"behavior":"allow","destination":"localSettings"},
{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"echo x:*"}],"behavior":"allow","destination":"session"}]}`

func decision(t *testing.T, out []byte) map[string]any {
	t.Helper()
	var got struct {
		Specific struct {
			HookEventName string         `json:"hookEventName"`
			Decision      map[string]any `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
	if got.Specific.HookEventName != "PermissionRequest" {
		t.Errorf("answer %s names event %q", out, got.Specific.HookEventName)
	}
	return got.Specific.Decision
}

func TestClaudeFormat_PermissionRequest_readsTheToolCall(t *testing.T) {
	ev, err := ClaudeFormat{}.Parse([]byte(permissionPayload))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != PermissionRequest || ev.ToolName != "Bash" || !strings.Contains(string(ev.ToolInput), "proof.txt") || !strings.Contains(string(ev.Suggestions), "session") {
		t.Errorf("parsed %+v", ev)
	}
}

func TestClaudeFormat_PermissionRequest_answersAsTheAgentTakesIt(t *testing.T) {
	ev, _ := ClaudeFormat{}.Parse([]byte(permissionPayload))
	if out := (ClaudeFormat{}).Encode(ev, Answer{}); out != nil {
		t.Errorf("no decision answered %q: the agent must ask in its own way", out)
	}
	if out := (ClaudeFormat{}).Encode(ev, Answer{Permission: &Permission{Verdict: "maybe"}}); out != nil {
		t.Errorf("an unknown verdict answered %q: nothing is allowed by default", out)
	}
	d := decision(t, ClaudeFormat{}.Encode(ev, Answer{Permission: &Permission{Verdict: "allow"}}))
	if d["behavior"] != "allow" || d["updatedPermissions"] != nil || d["updatedInput"] != nil {
		t.Errorf("allow: %v", d)
	}
	d = decision(t, ClaudeFormat{}.Encode(ev, Answer{Permission: &Permission{Verdict: "always"}}))
	perms, _ := d["updatedPermissions"].([]any)
	if d["behavior"] != "allow" || len(perms) != 1 || perms[0].(map[string]any)["destination"] != "session" {
		t.Errorf("always must give back the session's suggestions only, never a settings file's: %v", d)
	}
	d = decision(t, ClaudeFormat{}.Encode(ev, Answer{Permission: &Permission{Verdict: "deny", Message: "use a temp dir"}}))
	if d["behavior"] != "deny" || d["message"] != "use a temp dir" {
		t.Errorf("deny: %v", d)
	}
}

func TestClaudeFormat_PermissionRequest_planApprovalGivesTheInputBack(t *testing.T) {
	ev := Event{Name: PermissionRequest, SessionID: "s", ToolName: ExitPlanMode, ToolInput: json.RawMessage(`{"plan":"1. do it"}`)}
	d := decision(t, ClaudeFormat{}.Encode(ev, Answer{Permission: &Permission{Verdict: "allow"}}))
	if in, _ := d["updatedInput"].(map[string]any); in["plan"] != "1. do it" {
		t.Errorf("ExitPlanMode allowed without its input: %v", d)
	}
}

func TestSummarize(t *testing.T) {
	cases := []struct {
		tool, input, summary, detail string
	}{
		{"Bash", `{"command":"echo x > proof.txt","description":"Write proof"}`, "echo x > proof.txt", "Write proof"},
		{"Edit", `{"file_path":"/p/a.go","old_string":"a\nb","new_string":"c"}`, "/p/a.go", "- a\n- b\n+ c"},
		{"Write", `{"file_path":"/p/n.txt","content":"hello\nworld\n"}`, "/p/n.txt", "hello\nworld"},
		{"ExitPlanMode", `{"plan":"## Plan\n1. tests"}`, "## Plan", "## Plan\n1. tests"},
		{"WebFetch", `{"url":"https://x.test/a","prompt":"p"}`, "https://x.test/a", ""},
		{"exec_command", `{"cmd":"touch proof.txt","justification":"j"}`, "touch proof.txt", ""},
		{"Bash", `{"command":"rm -rf \u001b[31m/\u0007 x"}`, "rm -rf [31m/ x", ""},
		{"Bash", `not json`, "Bash", ""},
	}
	for _, c := range cases {
		s, d := Summarize(c.tool, json.RawMessage(c.input))
		if s != c.summary || d != c.detail {
			t.Errorf("Summarize(%s, %s) = %q, %q; want %q, %q", c.tool, c.input, s, d, c.summary, c.detail)
		}
	}
	long, _ := json.Marshal(map[string]string{"command": strings.Repeat("é", 2*MaxSummary), "description": strings.Repeat("line\n", 500)})
	s, d := Summarize("Bash", long)
	if utf8.RuneCountInString(s) > MaxSummary || len(d) > MaxDetail+len("…") || !strings.HasSuffix(d, "…") {
		t.Errorf("unbounded: %d runes, %d bytes", utf8.RuneCountInString(s), len(d))
	}
}

func FuzzSummarize(f *testing.F) {
	f.Add("Bash", []byte(`{"command":"echo x"}`))
	f.Add("Edit", []byte(`{"file_path":"a","old_string":"x\ny","new_string":"\u0000"}`))
	f.Add("MultiEdit", []byte(`{"file_path":"a","edits":[{"old_string":"x","new_string":"y"}]}`))
	f.Add("ExitPlanMode", []byte(`{"plan":"\u202e1."}`))
	f.Fuzz(func(t *testing.T, tool string, input []byte) {
		s, d := Summarize(tool, input)
		if !utf8.ValidString(s) || !utf8.ValidString(d) || strings.ContainsAny(s, "\n\r\x00\x1b") || strings.ContainsAny(d, "\r\x00\x1b") {
			t.Errorf("not clean: %q, %q", s, d)
		}
		if utf8.RuneCountInString(s) > MaxSummary || len(d) > MaxDetail+len("…") {
			t.Errorf("unbounded: %q", s)
		}
	})
}
