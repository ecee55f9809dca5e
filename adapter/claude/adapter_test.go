package claude

import (
	"path/filepath"
	"testing"

	"github.com/tallyhq/tally"
)

// The config directory is resolved by the caller (cli.Env): the adapter
// reads exactly what it is given, and nothing when given nothing.
func TestNew_ConfigDir(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/env/claude")
	if got := New(Options{ConfigDir: "/opt/c"}).Roots(); len(got) != 2 || got[0] != "/opt/c/projects" || got[1] != "/opt/c/tasks" {
		t.Errorf("option: roots %v", got)
	}
	if got := New(Options{}).Roots(); len(got) != 0 {
		t.Errorf("no config dir: roots %v, want none (the environment is not the adapter's to read)", got)
	}
}

func TestAdapter_Match(t *testing.T) {
	root := "/c/projects"
	tests := []struct {
		path    string
		ok      bool
		session string
		list    string
	}{
		{"/c/projects/-w/abc.jsonl", true, "abc", ""},
		{"/c/projects/-w/abc/subagents/agent-a19.jsonl", true, "abc", "a19"},
		{"/c/projects/-w/abc/subagents/workflows/wf1/agent-aspec-writer-01.jsonl", true, "abc", "aspec-writer-01"},
		{"/c/projects/-w/abc/subagents/agent-a19.meta.json", false, "", ""},
		{"/c/projects/-w/abc/subagents/notes.jsonl", false, "", ""},
		{"/c/projects/abc.jsonl", false, "", ""},
		{"/c/projects/-w/abc/other/agent-a.jsonl", false, "", ""},
		{"/elsewhere/-w/abc.jsonl", false, "", ""},
	}
	a := New(Options{ConfigDir: "/c"})
	for _, tt := range tests {
		fi, ok := a.Match(root, filepath.FromSlash(tt.path))
		if ok != tt.ok || fi.Session != tt.session || fi.List != tt.list {
			t.Errorf("Match(%s) = %+v %v, want session %q list %q %v", tt.path, fi, ok, tt.session, tt.list, tt.ok)
		}
	}
}

// A task list's files are claimed as their directory, one list; the lock
// and temporary files Claude Code makes beside them are not.
func TestAdapter_Match_TaskListFilesAreTheirDirectory(t *testing.T) {
	a := New(Options{ConfigDir: "/c"})
	root := "/c/tasks"
	for _, tt := range []struct {
		path string
		ok   bool
	}{
		{"/c/tasks/greet-team", true},
		{"/c/tasks/greet-team/1.json", true},
		{"/c/tasks/greet-team/12.json", true},
		{"/c/tasks/greet-team/.highwatermark", true},
		{"/c/tasks/greet-team/.lock", false},
		{"/c/tasks/greet-team/3.json.tmp.5f80f317", false},
		{"/c/tasks/greet-team/3.json.lock", false},
		{"/c/tasks/greet-team/.json", false},
		{"/c/tasks/greet-team/sub/1.json", false},
		{"/c/tasks/.hidden/1.json", false},
		{"/c/tasks/1.json", true}, // a list named "1.json" is still a directory
	} {
		fi, ok := a.Match(root, filepath.FromSlash(tt.path))
		if ok != tt.ok {
			t.Errorf("Match(%s) = %v, want %v", tt.path, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		dir := filepath.Join(root, fi.Session)
		if fi.Layout != tally.LayoutDirectory || fi.Path != dir || fi.List != "" {
			t.Errorf("Match(%s) = %+v, want the directory %s (LayoutDirectory)", tt.path, fi, dir)
		}
	}
	if !a.SkipDir(root, "/c/tasks/greet-team/3.json.lock") || a.SkipDir(root, "/c/tasks/greet-team") || a.SkipDir("/c/projects", "/c/projects/-w/abc") {
		t.Error("SkipDir must leave out exactly what is under a list's directory")
	}
}

// TestDecoder_Recent: whose turn it is comes from the newest user or
// assistant line; lines without timestamps are skipped.
func TestDecoder_Recent(t *testing.T) {
	const (
		endTurn = `{"type":"assistant","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}}`
		toolUse = `{"type":"assistant","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}],"stop_reason":"tool_use"}}`
		result  = `{"type":"user","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`
		noTime  = `{"type":"last-prompt","lastPrompt":"x","sessionId":"s"}`
		final   = `{"duration_api_ms":1,"type":"result","subtype":"success","session_id":"s"}`
		asked   = `{"type":"assistant","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"text","text":"Tests pass. Shall I also update the README?\n"}],"stop_reason":"end_turn"}}`
		quoted  = `{"type":"assistant","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"text","text":"Which one do you want: **A or B?**"}],"stop_reason":"end_turn"}}`
		askedCJ = `{"type":"assistant","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"text","text":"要继续吗？"}],"stop_reason":"end_turn"}}`
		midAsk  = `{"type":"assistant","timestamp":"2026-11-22T10:00:05Z","message":{"content":[{"type":"text","text":"Why did it fail? The path was wrong. Fixed."}],"stop_reason":"end_turn"}}`
	)
	tests := []struct {
		name  string
		lines []string
		want  tally.Signal
	}{
		{"an end_turn reply waits for the user", []string{endTurn, noTime}, tally.SignalWaiting},
		{"a tool call is work", []string{toolUse}, tally.SignalWorking},
		{"a tool result is work", []string{endTurn, result, noTime}, tally.SignalWorking},
		{"stream-json's result ends the session", []string{endTurn, final}, tally.SignalEnded},
		{"a reply ending on a question asks the user", []string{asked}, tally.SignalAsking},
		{"a question in bold still asks", []string{quoted}, tally.SignalAsking},
		{"a full-width question mark asks too", []string{askedCJ}, tally.SignalAsking},
		{"a question answered in the same reply does not ask", []string{midAsk}, tally.SignalWaiting},
		{"a question followed by a tool call is work", []string{asked, toolUse}, tally.SignalWorking},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data []byte
			for _, l := range tt.lines {
				data = append(append(data, l...), '\n')
			}
			st := foldAll(t, tally.FileInfo{Path: "r.jsonl"}, data)
			if st.Signal != tt.want {
				t.Errorf("signal %v, want %v", st.Signal, tt.want)
			}
			if st.LastAt.IsZero() || st.LastAt.Second() != 5 {
				t.Errorf("last activity %v, want the newest timestamp", st.LastAt)
			}
		})
	}
}
