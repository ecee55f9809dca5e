package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally"
)

// The structured answers. Field names are Claude Code's Tasks V2 output
// shapes (FORMATS.md §1) and Hermes' todo summary; "list" is added to each
// so a model that let the server pick the list learns its name.

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
	Success                 bool                `json:"success"`
	TaskID                  string              `json:"taskId"`
	UpdatedFields           []string            `json:"updatedFields"`
	StatusChange            *tally.StatusChange `json:"statusChange,omitempty"`
	VerificationNudgeNeeded bool                `json:"verificationNudgeNeeded"`
	List                    string              `json:"list"`
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
	Todos                   []todoOut         `json:"todos"`
	Summary                 tally.TaskSummary `json:"summary"`
	VerificationNudgeNeeded bool              `json:"verificationNudgeNeeded"`
	List                    string            `json:"list"`
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
		content = append(content, &sdk.TextContent{Text: tally.VerificationNudge})
	}
	return &sdk.CallToolResult{Content: content, StructuredContent: out}
}

// errorCodes is the one table from domain codes to what a tool error
// starts with.
var errorCodes = map[tally.Code]string{
	tally.CodeInvalid:     "Invalid arguments",
	tally.CodeNotFound:    "Not found",
	tally.CodeConflict:    "Refused",
	tally.CodeUnavailable: "Store unavailable, try again",
	tally.CodeInternal:    "Internal error",
}

// toolError answers a failed call with isError set, worded for a model.
func toolError(err error) *sdk.CallToolResult {
	msg := err.Error()
	var te *tally.Error
	if e, ok := err.(*tally.Error); ok {
		te = e
		msg = te.Err.Error()
	}
	text := errorCodes[tally.ErrorCode(err)] + ": " + msg
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

func createResult(l tally.TaskList, res tally.CreateResult) *sdk.CallToolResult {
	out := taskCreateOut{Task: taskRef{ID: res.Task.ID, Subject: res.Task.Title}, List: l.Name, FreshList: res.Fresh}
	text := fmt.Sprintf("Task #%s created successfully: %s", res.Task.ID, res.Task.Title)
	if res.Fresh {
		text += fmt.Sprintf(" (every task of list %s was done: that round is archived and this list starts again from #1)", l.Name)
	}
	return result(text, out, false)
}

func updateResult(l tally.TaskList, id string, res tally.UpdateResult) *sdk.CallToolResult {
	out := taskUpdateOut{Success: true, TaskID: id, UpdatedFields: res.UpdatedFields, StatusChange: res.StatusChange,
		VerificationNudgeNeeded: res.VerificationNudge, List: l.Name}
	text := fmt.Sprintf("Updated task #%s %s", id, strings.Join(res.UpdatedFields, ", "))
	if len(res.UpdatedFields) == 0 {
		text = fmt.Sprintf("Task #%s unchanged", id)
	}
	if sc := res.StatusChange; sc != nil && sc.To == tally.StatusCompleted.String() {
		if unblocked := unblockedBy(l, id); len(unblocked) > 0 {
			text += "; now unblocked: #" + strings.Join(unblocked, ", #")
		}
	}
	return result(text, out, res.VerificationNudge)
}

// unblockedBy lists the tasks that id blocked and that no open task blocks
// any more.
func unblockedBy(l tally.TaskList, id string) []string {
	var out []string
	views := l.View()
	for _, v := range views {
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

func listResult(l tally.TaskList) *sdk.CallToolResult {
	out := taskListOut{Tasks: []taskLine{}, List: l.Name, Mode: l.Mode.String()}
	var b strings.Builder
	fmt.Fprintf(&b, "List %s (%s mode): %d tasks", l.Name, l.Mode, len(l.Tasks))
	for _, v := range l.View() {
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

func getResult(l tally.TaskList, id string) *sdk.CallToolResult {
	for _, v := range l.View() {
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
	return result("Task not found. "+err.(*tally.Error).Err.Error(), taskGetOut{List: l.Name}, false)
}

func todoResult(l tally.TaskList, nudge bool) *sdk.CallToolResult {
	out := todoWriteOut{Todos: []todoOut{}, Summary: l.Summary(), VerificationNudgeNeeded: nudge, List: l.Name}
	for _, t := range l.Tasks {
		out.Todos = append(out.Todos, todoOut{ID: t.ID, Content: t.Title, Status: t.StatusWord(), ActiveForm: t.ActiveForm})
	}
	s := out.Summary
	text := fmt.Sprintf("Todo list %s updated: %d total, %d pending, %d in progress, %d completed, %d cancelled",
		l.Name, s.Total, s.Pending, s.InProgress, s.Completed, s.Cancelled)
	return result(text, out, nudge)
}

func planResult(l tally.TaskList, nudge bool) *sdk.CallToolResult {
	out := updatePlanOut{Message: "Plan updated", Explanation: l.Explanation, Plan: []planStepOut{}, VerificationNudgeNeeded: nudge, List: l.Name}
	for _, t := range l.Tasks {
		out.Plan = append(out.Plan, planStepOut{Step: t.Title, Status: t.StatusWord()})
	}
	return result("Plan updated", out, nudge)
}
