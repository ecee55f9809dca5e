package mcp

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// claudeTasksCapture is a real Claude Code 2.1.330 session that creates
// three tasks, links, starts, completes and deletes them with its own Task
// tools (testdata/fixtures/captured/README.md says how it was made).
const claudeTasksCapture = "../testdata/fixtures/captured/claude-code-2.1.330/tasks/config/projects/-tmp-capture-cc-tasks-work/ff833579-73c0-4d20-92ee-931086a0b9c3.jsonl"

// claudeCall is one Task tool call of a Claude Code transcript with the
// answer Claude Code's own tool gave (toolUseResult).
type claudeCall struct {
	name   string
	input  map[string]any
	answer map[string]any
}

// claudeTaskCalls reads the Task tool calls of a transcript, in the order
// the model made them, each with Claude Code's answer.
func claudeTaskCalls(t *testing.T, path string) []claudeCall {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []*claudeCall
	byID := map[string]*claudeCall{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
			ToolUseResult map[string]any `json:"toolUseResult"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.Type != "assistant" && line.Type != "user" {
			continue // Claude Code's copies of API requests repeat the calls
		}
		var blocks []struct {
			Type      string         `json:"type"`
			ID        string         `json:"id"`
			Name      string         `json:"name"`
			Input     map[string]any `json:"input"`
			ToolUseID string         `json:"tool_use_id"`
		}
		_ = json.Unmarshal(line.Message.Content, &blocks) // a string content holds no tool call
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use" && (b.Name == "TaskCreate" || b.Name == "TaskUpdate" || b.Name == "TaskList" || b.Name == "TaskGet"):
				c := &claudeCall{name: b.Name, input: b.Input}
				calls = append(calls, c)
				byID[b.ID] = c
			case b.Type == "tool_result" && byID[b.ToolUseID] != nil:
				byID[b.ToolUseID].answer = line.ToolUseResult
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out := make([]claudeCall, len(calls))
	for i, c := range calls {
		if c.answer == nil {
			t.Fatalf("%s call %d has no answer in %s", c.name, i, path)
		}
		out[i] = *c
	}
	return out
}

// TestTaskUpdate_AnswersAsClaudeCode replays the Task tool calls of a real
// Claude Code session through Tally's tools: every TaskUpdate answer holds
// what Claude Code's own answered, field for field. Deleting a task in
// progress answers "from":"in_progress", the status it had, not the status
// of the task that took its place in the list.
func TestTaskUpdate_AnswersAsClaudeCode(t *testing.T) {
	calls := claudeTaskCalls(t, claudeTasksCapture)
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	cs := connect(t, Options{Store: st, List: "replay", Now: fixedClock()})
	updates := 0
	for i, c := range calls {
		a := call(t, cs, c.name, c.input)
		if a.IsError {
			t.Fatalf("call %d %s %v refused: %s", i, c.name, c.input, a.Text)
		}
		if c.name != "TaskUpdate" {
			continue
		}
		updates++
		for k, want := range c.answer {
			if got := a.Out[k]; !reflect.DeepEqual(got, want) {
				t.Errorf("call %d TaskUpdate %v: %s = %v, Claude Code answered %v", i, c.input, k, got, want)
			}
		}
	}
	if updates != 7 {
		t.Fatalf("replayed %d TaskUpdate calls, want the capture's 7", updates)
	}
}
