package mcp

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusals_TellTheModelWhatToCallInstead drives each refusal of the
// list's rules through the tools and reads the whole text a model gets:
// what is wrong, then what to call instead.
func TestRefusals_TellTheModelWhatToCallInstead(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	cs := connect(t, Options{Store: st, List: "w", Now: fixedClock()})
	for _, s := range []string{"Write the parser", "Ship", "Announce"} {
		if a := call(t, cs, "TaskCreate", map[string]any{"subject": s}); a.IsError {
			t.Fatal(a.Text)
		}
	}
	for _, args := range []map[string]any{
		{"taskId": "3", "addBlockedBy": []string{"2"}},
		{"taskId": "1", "status": "in_progress", "owner": "ann"},
	} {
		if a := call(t, cs, "TaskUpdate", args); a.IsError {
			t.Fatal(a.Text)
		}
	}
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"a blocked task", "TaskUpdate", map[string]any{"taskId": "3", "status": "in_progress"},
			"Refused: task #3 cannot start: it is blocked by #2 (Ship, pending). Complete the blocker first, or start another task"},
		{"a second task in progress", "TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"},
			`Refused: task #1 (Write the parser) is already in progress and only one task per list may be: complete it (TaskUpdate {"taskId":"1","status":"completed"}) or set it back to pending, then start #2`},
		{"two in progress in one checklist", "todo_write", map[string]any{"todos": []map[string]any{{"content": "a", "status": "in_progress"}, {"content": "b", "status": "in_progress"}}},
			"Refused: 2 tasks would be in progress at once and only one per list may be: mark one in_progress, the others pending"},
		{"another owner's task", "TaskUpdate", map[string]any{"taskId": "1", "owner": "bob"},
			`Refused: task #1 is in progress and owned by ann; "bob" cannot claim it. Pick a pending task (TaskList), or wait until ann completes it`},
		{"a missing task", "TaskUpdate", map[string]any{"taskId": "9", "subject": "x"},
			"Not found: no task #9 in list w; its live tasks are 1, 2, 3 (TaskList shows them)"},
		{"a missing blocker", "TaskUpdate", map[string]any{"taskId": "2", "addBlockedBy": []string{"9"}},
			"Invalid arguments: addBlockedBy: no task #9 in list w; its live tasks are 1, 2, 3 (TaskList shows them)"},
		{"a word TaskUpdate does not take", "TaskUpdate", map[string]any{"taskId": "2", "status": "done"},
			`Invalid arguments: status "done" is not a valid status; use one of pending, in_progress, completed, deleted`},
		{"a word update_plan does not take", "update_plan", map[string]any{"plan": []map[string]any{{"step": "a", "status": "cancelled"}}},
			`Invalid arguments: plan[0].status "cancelled" is not a valid status; use one of pending, in_progress, completed`},
		{"a todo without a status", "todo_write", map[string]any{"todos": []map[string]any{{"content": "a"}}},
			`Invalid arguments: todos[0].status "" is not a valid status; use one of pending, in_progress, completed, cancelled`},
		{"a plan step without text is worded for update_plan", "update_plan", map[string]any{"plan": []map[string]any{{"step": "a", "status": "pending"}, {"step": " ", "status": "pending"}}},
			`Invalid arguments: plan[1].step is required and must not be empty`},
		{"a plan longer than a list keeps is worded for update_plan", "update_plan", map[string]any{"plan": manySteps(1001)},
			`Invalid arguments: plan has 1001 steps; a list keeps at most 1000`},
		{"a list name far too long is not echoed back", "TaskCreate", map[string]any{"subject": "x", "list": strings.Repeat("n", 10<<20)},
			`Invalid arguments: list name "` + strings.Repeat("n", 32) + `"… is 10485760 bytes; a name is at most 64: use a short one of letters, digits and . _ - : such as "backend-tasks"`},
		{"no task id", "TaskUpdate", map[string]any{"status": "completed"},
			`Invalid arguments: taskId is required (the id TaskCreate returned, e.g. "1")`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := call(t, cs, tt.tool, tt.args)
			if got := strings.TrimSpace(a.Text); !a.IsError || got != tt.want {
				t.Errorf("%s %v answered (isError %v)\n%s\nwant\n%s", tt.tool, tt.args, a.IsError, got, tt.want)
			}
		})
	}

	if a := call(t, cs, "TaskUpdate", map[string]any{"taskId": "3", "status": "deleted"}); a.IsError {
		t.Fatal(a.Text)
	}
	if a := call(t, cs, "TaskGet", map[string]any{"taskId": "3"}); a.IsError || !strings.HasPrefix(a.Text, "Task not found. task #3 of list w was deleted; its live tasks are 1, 2\n") {
		t.Errorf("TaskGet of a deleted task answered %q", a.Text)
	}
}

// TestPlanMode_RefusalNamesWhatWasRefused: each execution tool is told
// that the list waits for approval and how to get it approved.
func TestPlanMode_RefusalNamesWhatWasRefused(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	cs := connect(t, Options{Store: st, List: "p", PlanFirst: true, Now: fixedClock()})
	if a := call(t, cs, "TaskCreate", map[string]any{"subject": "draft"}); a.IsError {
		t.Fatal(a.Text)
	}
	const advice = " is execution, not allowed until the plan is approved. Draft the plan with TaskCreate (tasks stay pending), " +
		"then ask the user to approve it (`tally tasks approve p`, or the Approve plan button on the list's card in `tally serve`'s dashboard)"
	for tool, tt := range map[string]struct {
		args map[string]any
		what string
	}{
		"TaskUpdate":  {map[string]any{"taskId": "1", "status": "completed"}, "setting a task completed"},
		"todo_write":  {map[string]any{"todos": []map[string]any{{"content": "x", "status": "pending"}}}, "todo_write (a checklist tool)"},
		"update_plan": {map[string]any{"plan": []map[string]any{{"step": "x", "status": "pending"}}}, "update_plan (a TODO/checklist tool)"},
	} {
		a := call(t, cs, tool, tt.args)
		if want := "Refused: list p is in plan mode: " + tt.what + advice; !a.IsError || strings.TrimSpace(a.Text) != want {
			t.Errorf("%s in plan mode answered\n%s\nwant\n%s", tool, a.Text, want)
		}
	}
}

func manySteps(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{"step": "step", "status": "pending"}
	}
	return out
}
