package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// decodeArgs reads a call's arguments into dst. Empty, missing, null or
// "" arguments are {}: a model sends an empty body for TaskList, and
// Claude Code's own tools take it. Unknown arguments are refused with the
// valid names, so a misspelt "taskID" is not silently ignored.
func decodeArgs(raw json.RawMessage, dst any, valid []string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte(`""`)) {
		return nil
	}
	if !json.Valid(raw) {
		return tally.Errorf(tally.CodeInvalid, "arguments", "arguments are not valid JSON: send an object such as {\"taskId\":\"1\"}")
	}
	// encoding/json matches names regardless of case; a tool's names are
	// exact, so "taskID" is refused rather than taken for "taskId".
	var keys map[string]json.RawMessage
	if json.Unmarshal(raw, &keys) == nil {
		for k := range keys {
			if !slices.Contains(valid, k) {
				return tally.Errorf(tally.CodeInvalid, "arguments", "unknown argument %q; this tool takes %s", k, strings.Join(valid, ", "))
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return tally.Errorf(tally.CodeInvalid, "arguments", "argument %s must be %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	case errors.As(err, &te):
		return tally.Errorf(tally.CodeInvalid, "arguments", "arguments must be a JSON object, not a JSON %s", te.Value)
	case errors.As(err, &se):
		return tally.Errorf(tally.CodeInvalid, "arguments", "arguments are not valid JSON (%v)", err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return tally.Errorf(tally.CodeInvalid, "arguments", "unknown argument %s; this tool takes %s", field, strings.Join(valid, ", "))
	}
	return tally.Errorf(tally.CodeInvalid, "arguments", "%v", err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "map", "struct":
		return "an object"
	case "bool":
		return "true or false"
	}
	return "a " + goKind
}

// taskID is a task id as models send it: "3", or the number 3.
type taskID string

func (id *taskID) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*id = taskID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		if _, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			*id = taskID(n.String())
			return nil
		}
	}
	return fmt.Errorf("taskId must be a string such as \"1\", not %s", b)
}

type taskCreateArgs struct {
	List        string                     `json:"list"`
	Subject     string                     `json:"subject"`
	Description string                     `json:"description"`
	ActiveForm  string                     `json:"activeForm"`
	Metadata    map[string]json.RawMessage `json:"metadata"`
}

type taskUpdateArgs struct {
	List         string                     `json:"list"`
	TaskID       taskID                     `json:"taskId"`
	Status       *string                    `json:"status"`
	Subject      *string                    `json:"subject"`
	Description  *string                    `json:"description"`
	ActiveForm   *string                    `json:"activeForm"`
	Owner        *string                    `json:"owner"`
	AddBlocks    []taskID                   `json:"addBlocks"`
	AddBlockedBy []taskID                   `json:"addBlockedBy"`
	Metadata     map[string]json.RawMessage `json:"metadata"`
}

type taskListArgs struct {
	List string `json:"list"`
}

type taskGetArgs struct {
	List   string `json:"list"`
	TaskID taskID `json:"taskId"`
}

type todoArg struct {
	ID         taskID `json:"id"`
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

type todoWriteArgs struct {
	List  string    `json:"list"`
	Todos []todoArg `json:"todos"`
	Merge bool      `json:"merge"`
}

type planStepArg struct {
	Step   string `json:"step"`
	Status string `json:"status"`
}

type updatePlanArgs struct {
	List        string        `json:"list"`
	Explanation string        `json:"explanation"`
	Plan        []planStepArg `json:"plan"`
}

func ids(in []taskID) []string {
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = string(id)
	}
	return out
}

// The status words each tool takes: Claude Code's TaskUpdate (with
// "deleted" to remove a task), Hermes' todo, Codex's update_plan StepStatus.
// A model that sends another word is told the valid ones rather than
// guessed at, so "done" is refused, not read as completed.
var (
	taskUpdateStatuses = []string{"pending", "in_progress", "completed", "deleted"}
	todoStatuses       = []string{"pending", "in_progress", "completed", "cancelled"}
	planStatuses       = []string{"pending", "in_progress", "completed"}
)

// toolStatus parses a status word of a tool, accepting only the words in
// allowed.
func toolStatus(field, word string, allowed []string) (tally.Status, error) {
	if !slices.Contains(allowed, word) {
		return tally.StatusUnknown, tally.Errorf(tally.CodeInvalid, "arguments", "%s %q is not a valid status; use one of %s", field, word, strings.Join(allowed, ", "))
	}
	s, _ := tally.ParseStatus(word)
	return s, nil
}

func requireTaskID(id taskID) error {
	if id == "" {
		return tally.Errorf(tally.CodeInvalid, "arguments", "taskId is required (the id TaskCreate returned, e.g. \"1\")")
	}
	return nil
}

// updateArgs is the update a TaskUpdate call asks for; del is set for
// status "deleted".
func (a *taskUpdateArgs) updateArgs() (in tasks.UpdateArgs, del bool, err error) {
	if err := requireTaskID(a.TaskID); err != nil {
		return in, false, err
	}
	in = tasks.UpdateArgs{
		ID: string(a.TaskID), Subject: a.Subject, Description: a.Description, ActiveForm: a.ActiveForm,
		Owner: a.Owner, AddBlocks: ids(a.AddBlocks), AddBlockedBy: ids(a.AddBlockedBy), Metadata: a.Metadata,
	}
	if a.Status == nil {
		return in, false, nil
	}
	if *a.Status == "deleted" {
		return in, true, nil
	}
	st, err := toolStatus("status", *a.Status, taskUpdateStatuses)
	in.Status = &st
	return in, false, err
}

// todos is the checklist a todo_write call writes. With merge, a todo
// without a status keeps its task's.
func (a *todoWriteArgs) todos() ([]tasks.Todo, error) {
	out := make([]tasks.Todo, len(a.Todos))
	for i, td := range a.Todos {
		out[i] = tasks.Todo{ID: string(td.ID), Content: td.Content, ActiveForm: td.ActiveForm}
		if td.Status == "" && a.Merge {
			continue
		}
		st, err := toolStatus(fmt.Sprintf("todos[%d].status", i), td.Status, todoStatuses)
		if err != nil {
			return nil, err
		}
		out[i].Status = st
	}
	return out, nil
}

// steps is the plan an update_plan call writes.
func (a *updatePlanArgs) steps() ([]tasks.PlanStep, error) {
	out := make([]tasks.PlanStep, len(a.Plan))
	for i, s := range a.Plan {
		st, err := toolStatus(fmt.Sprintf("plan[%d].status", i), s.Status, planStatuses)
		if err != nil {
			return nil, err
		}
		out[i] = tasks.PlanStep{Step: s.Step, Status: st}
	}
	return out, nil
}
