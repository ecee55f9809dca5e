package mcp

import (
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// What a model reads when a list's rules refuse a call or ask for more.
// The tasks package says what is wrong; this file adds what to call
// instead, naming the tools a model has.

// verificationNudge is added to an answer when tasks says verification
// is due: three or more tasks closed and none of them checks the work.
const verificationNudge = "You have completed 3 or more tasks and none of them verifies the work. " +
	"Before you finish, add a task to verify it (run the tests, the linter or a smoke check) and do it."

// errorCodes is the one table from domain codes to what a tool error
// starts with.
var errorCodes = map[tally.Code]string{
	tally.CodeInvalid:     "Invalid arguments",
	tally.CodeNotFound:    "Not found",
	tally.CodeConflict:    "Refused",
	tally.CodeUnavailable: "Store unavailable, try again",
	tally.CodeInternal:    "Internal error",
}

// toolError answers a failed call of tool with isError set.
func toolError(tool string, err error) *sdk.CallToolResult {
	text := errorCodes[tally.ErrorCode(err)] + ": " + explain(tool, err)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// explain words err for a model that called tool: what is wrong, and for
// a refusal of the list's rules, what to do instead.
func explain(tool string, err error) string {
	msg := err.Error()
	var te *tally.Error
	if errors.As(err, &te) {
		msg = te.Message()
	}
	var (
		plan    *tasks.PlanModeError
		blocked *tasks.BlockedError
		busy    *tasks.BusyError
		claim   *tasks.ClaimError
		missing *tasks.NotFoundError
	)
	switch {
	case errors.As(err, &plan):
		return fmt.Sprintf("list %s is in plan mode: %s is execution, not allowed until the plan is approved. "+
			"Draft the plan with TaskCreate (tasks stay pending), then ask the user to approve it "+
			"(`tally tasks approve %s`, or the Approve plan button on the list's card in `tally serve`'s dashboard)", plan.List, planAction(tool, plan.Status), plan.List)
	case errors.As(err, &blocked):
		return msg + ". Complete the blocker first, or start another task"
	case errors.As(err, &busy) && busy.Current != nil:
		return fmt.Sprintf("%s: complete it (TaskUpdate {\"taskId\":%q,\"status\":\"completed\"}) or set it back to pending, then start #%s",
			msg, busy.Current.ID, busy.Start)
	case errors.As(err, &busy):
		return msg + ": mark one in_progress, the others pending"
	case errors.As(err, &claim):
		return fmt.Sprintf("%s. Pick a pending task (TaskList), or wait until %s completes it", msg, claim.Owner)
	case errors.As(err, &missing) && !missing.Deleted:
		return msg + " (TaskList shows them)"
	}
	return msg
}

// planAction names what a refused call of tool would have done.
func planAction(tool string, status tally.Status) string {
	switch tool {
	case "todo_write":
		return "todo_write (a checklist tool)"
	case "update_plan":
		return "update_plan (a TODO/checklist tool)"
	}
	return "setting a task " + status.String()
}
