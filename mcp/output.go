package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// The structured answers. Field names are those of Claude Code's own Task
// tools' answers (toolUseResult: task, success, taskId, updatedFields,
// statusChange, tasks) and of Hermes' todo summary; "list" is added to
// each so a model that let the server pick the list learns its name. A
// list field is [] rather than null when empty, as Claude Code's are.

type taskRef struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
}

type taskCreateOut struct {
	Task taskRef `json:"task"`
	List string  `json:"list"`
	// FreshList: the previous round was all done and was archived; this
	// task is #1 of a new one.
	FreshList bool `json:"freshList,omitempty"`
}

type taskUpdateOut struct {
	Success                 bool             `json:"success"`
	TaskID                  string           `json:"taskId"`
	UpdatedFields           []string         `json:"updatedFields"`
	StatusChange            *statusChangeOut `json:"statusChange,omitempty"`
	VerificationNudgeNeeded bool             `json:"verificationNudgeNeeded"`
	List                    string           `json:"list"`
}

type statusChangeOut struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// updateAnswer is what a TaskUpdate did, in the tool's words: the fields
// it changed ("deleted" for a deletion) and the status before and after.
type updateAnswer struct {
	fields []string
	change *statusChangeOut
	nudge  bool
}

type taskLine struct {
	ID         string   `json:"id"`
	Subject    string   `json:"subject"`
	Status     string   `json:"status"`
	Owner      string   `json:"owner,omitempty"`
	ActiveForm string   `json:"activeForm,omitempty"`
	BlockedBy  []string `json:"blockedBy"`
	Blocked    bool     `json:"blocked"`
}

type taskListOut struct {
	Tasks []taskLine `json:"tasks"`
	List  string     `json:"list"`
	Mode  string     `json:"mode"`
}

type taskFull struct {
	ID          string                     `json:"id"`
	Subject     string                     `json:"subject"`
	Description string                     `json:"description"`
	Status      string                     `json:"status"`
	ActiveForm  string                     `json:"activeForm,omitempty"`
	Owner       string                     `json:"owner,omitempty"`
	Blocks      []string                   `json:"blocks"`
	BlockedBy   []string                   `json:"blockedBy"`
	Blocked     bool                       `json:"blocked"`
	Metadata    map[string]json.RawMessage `json:"metadata,omitempty"`
}

type taskGetOut struct {
	Task *taskFull `json:"task"`
	List string    `json:"list"`
}

type todoOut struct {
	ID         string `json:"id"`
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
}

type todoWriteOut struct {
	Todos                   []todoOut  `json:"todos"`
	Summary                 summaryOut `json:"summary"`
	VerificationNudgeNeeded bool       `json:"verificationNudgeNeeded"`
	List                    string     `json:"list"`
}

// summaryOut is Hermes' todo summary: the live tasks counted by status.
type summaryOut struct {
	Total      int `json:"total"`
	Pending    int `json:"pending"`
	InProgress int `json:"in_progress"`
	Completed  int `json:"completed"`
	Cancelled  int `json:"cancelled"`
}

type planStepOut struct {
	Step   string `json:"step"`
	Status string `json:"status"`
}

type updatePlanOut struct {
	Message                 string        `json:"message"`
	Explanation             string        `json:"explanation,omitempty"`
	Plan                    []planStepOut `json:"plan"`
	VerificationNudgeNeeded bool          `json:"verificationNudgeNeeded"`
	List                    string        `json:"list"`
}

// result is a tool answer: a line for the model, the structured value as
// JSON text (clients that pass only text to the model lose nothing), and
// the nudge sentence when it is due.
func result(text string, out any, nudge bool) *sdk.CallToolResult {
	js, _ := json.Marshal(out) // plain structs of strings and RawMessage
	content := []sdk.Content{&sdk.TextContent{Text: text + "\n" + string(js)}}
	if nudge {
		content = append(content, &sdk.TextContent{Text: verificationNudge})
	}
	return &sdk.CallToolResult{Content: content, StructuredContent: out}
}

func createResult(l tasks.List, res tasks.CreateResult) *sdk.CallToolResult {
	out := taskCreateOut{Task: taskRef{ID: res.Task.ID, Subject: res.Task.Title}, List: l.Name, FreshList: res.Fresh}
	text := fmt.Sprintf("Task #%s created successfully: %s", res.Task.ID, res.Task.Title)
	if res.Fresh {
		text += fmt.Sprintf(" (every task of list %s was done: that round is archived and this list starts again from #1)", l.Name)
	}
	return result(text, out, false)
}

func updateResult(l tasks.List, id string, ans updateAnswer) *sdk.CallToolResult {
	out := taskUpdateOut{Success: true, TaskID: id, UpdatedFields: nonNil(ans.fields), StatusChange: ans.change,
		VerificationNudgeNeeded: ans.nudge, List: l.Name}
	text := fmt.Sprintf("Updated task #%s %s", id, strings.Join(ans.fields, ", "))
	if len(ans.fields) == 0 {
		text = fmt.Sprintf("Task #%s unchanged", id)
	}
	if sc := ans.change; sc != nil && sc.To == tally.StatusCompleted.String() {
		if unblocked := unblockedBy(l, id); len(unblocked) > 0 {
			text += "; now unblocked: #" + strings.Join(unblocked, ", #")
		}
	}
	return result(text, out, ans.nudge)
}

// unblockedBy lists the tasks that id blocked and that no open task blocks
// any more.
func unblockedBy(l tasks.List, id string) []string {
	var out []string
	for _, v := range l.Items() {
		if !v.Blocked && v.Status == tally.StatusPending && contains(v.BlockedBy, id) {
			out = append(out, v.ID)
		}
	}
	return out
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func listResult(l tasks.List) *sdk.CallToolResult {
	out := taskListOut{Tasks: []taskLine{}, List: l.Name, Mode: l.Mode.String()}
	var b strings.Builder
	fmt.Fprintf(&b, "List %s (%s mode): %d tasks", l.Name, l.Mode, len(l.Tasks))
	for _, v := range l.Items() {
		out.Tasks = append(out.Tasks, taskLine{ID: v.ID, Subject: v.Title, Status: v.StatusWord(), Owner: v.Owner,
			ActiveForm: v.ActiveForm, BlockedBy: nonNil(v.BlockedBy), Blocked: v.Blocked})
		fmt.Fprintf(&b, "\n#%s [%s] %s", v.ID, v.StatusWord(), v.Title)
		if v.Owner != "" {
			fmt.Fprintf(&b, " (owner: %s)", v.Owner)
		}
		if v.Blocked {
			fmt.Fprintf(&b, " [blocked by #%s]", strings.Join(v.BlockedBy, ", #"))
		}
	}
	if len(l.Tasks) == 0 {
		b.WriteString(" (TaskCreate adds one)")
	}
	return result(b.String(), out, false)
}

func getResult(l tasks.List, id string) *sdk.CallToolResult {
	for _, v := range l.Items() {
		if v.ID != id {
			continue
		}
		t, _ := l.Task(id)
		full := &taskFull{ID: v.ID, Subject: v.Title, Description: v.Description, Status: v.StatusWord(), ActiveForm: v.ActiveForm,
			Owner: v.Owner, Blocks: nonNil(v.Blocks), BlockedBy: nonNil(v.BlockedBy), Blocked: v.Blocked, Metadata: t.Metadata}
		return result(fmt.Sprintf("Task #%s [%s] %s", v.ID, v.StatusWord(), v.Title), taskGetOut{Task: full, List: l.Name}, false)
	}
	// Claude Code answers a missing task with task:null; the text says why.
	_, err := l.Task(id)
	return result("Task not found. "+explain("TaskGet", err), taskGetOut{List: l.Name}, false)
}

func todoResult(l tasks.List, nudge bool) *sdk.CallToolResult {
	s := l.Summary()
	out := todoWriteOut{Todos: []todoOut{}, VerificationNudgeNeeded: nudge, List: l.Name,
		Summary: summaryOut{Total: s.Total, Pending: s.Pending, InProgress: s.InProgress, Completed: s.Completed, Cancelled: s.Cancelled}}
	for _, t := range l.Tasks {
		out.Todos = append(out.Todos, todoOut{ID: t.ID, Content: t.Title, Status: t.StatusWord(), ActiveForm: t.ActiveForm})
	}
	text := fmt.Sprintf("Todo list %s updated: %d total, %d pending, %d in progress, %d completed, %d cancelled",
		l.Name, s.Total, s.Pending, s.InProgress, s.Completed, s.Cancelled)
	return result(text, out, nudge)
}

func planResult(l tasks.List, nudge bool) *sdk.CallToolResult {
	out := updatePlanOut{Message: "Plan updated", Explanation: l.Explanation, Plan: []planStepOut{}, VerificationNudgeNeeded: nudge, List: l.Name}
	for _, t := range l.Tasks {
		out.Plan = append(out.Plan, planStepOut{Step: t.Title, Status: t.StatusWord()})
	}
	return result("Plan updated", out, nudge)
}
