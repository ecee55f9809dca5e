package mcp

import (
	"context"
	"embed"
	"encoding/json"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

//go:embed schemas/*.json
var schemaFS embed.FS

type tools struct {
	o Options
	// fallback names the list of a session without an id (stdio: one
	// session per process).
	fallback string
}

// toolDef is one tool: its name, what the model is told, the argument
// names (for error messages) and the handler.
type toolDef struct {
	name, desc string
	readOnly   bool
	args       []string
	run        func(t *tools, ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error)
}

var toolDefs = []toolDef{
	{name: "TaskCreate", args: []string{"subject", "description", "activeForm", "metadata", "list"}, run: (*tools).taskCreate,
		desc: "Create a task in a durable task list. Tasks start pending; ids are \"1\", \"2\", … per list. " +
			"When every task of the list is completed, the next TaskCreate starts a fresh list from id 1."},
	{name: "TaskUpdate", args: []string{"taskId", "status", "subject", "description", "activeForm", "owner", "addBlocks", "addBlockedBy", "metadata", "list"}, run: (*tools).taskUpdate,
		desc: "Update a task: status (pending, in_progress, completed, or deleted to remove it), fields, owner, dependencies, metadata. " +
			"Mark a task in_progress before working on it and completed only when fully done. Only one task per list can be in_progress; " +
			"a task whose blockers are not completed cannot start."},
	{name: "TaskList", readOnly: true, args: []string{"list"}, run: (*tools).taskList,
		desc: "List the live tasks of a list with status, owner, blockedBy and whether each is blocked."},
	{name: "TaskGet", readOnly: true, args: []string{"taskId", "list"}, run: (*tools).taskGet,
		desc: "Get one task with its description, status, owner, blocks and blockedBy."},
	{name: "todo_write", args: []string{"todos", "merge", "list", "(each todo: id, content, status, activeForm)"}, run: (*tools).todoWrite,
		desc: "Write the todo list: without merge the list becomes exactly todos (TodoWrite / write_todos style); with merge=true " +
			"todos update tasks by id and unknown ids are added. Returns the full list and a summary. At most one todo in_progress."},
	{name: "update_plan", args: []string{"explanation", "plan", "list", "(each step: step, status)"}, run: (*tools).updatePlan,
		desc: "Updates the task plan. Provide an optional explanation and a list of plan items, each with a step and status. " +
			"At most one step can be in_progress at a time."},
}

func (t *tools) register(srv *sdk.Server) {
	for _, d := range toolDefs {
		schema, err := schemaFS.ReadFile("schemas/" + d.name + ".json")
		if err != nil {
			panic(err) // the embedded files are part of the build
		}
		tool := &sdk.Tool{Name: d.name, Description: d.desc, InputSchema: json.RawMessage(schema),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: d.readOnly}}
		if !d.readOnly {
			destructive := d.name == "todo_write" || d.name == "update_plan"
			tool.Annotations.DestructiveHint = &destructive
		}
		name, run, args := d.name, d.run, d.args
		srv.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := run(t, ctx, req, args)
			if err != nil {
				return toolError(name, err), nil
			}
			return res, nil
		})
	}
}

// update resolves the list and runs fn on it in one store transaction.
// A list the store has never seen starts in plan mode when the server
// says so.
func (t *tools) update(ctx context.Context, req *sdk.CallToolRequest, list string, fn func(*tasks.List) error) (tasks.List, error) {
	name, err := t.listName(list, req.Session)
	if err != nil {
		return tasks.List{}, err
	}
	return t.o.Store.UpdateTaskList(ctx, name, func(l *tasks.List) error {
		if l.CreatedAt.IsZero() && len(l.Tasks) == 0 {
			if t.o.PlanFirst {
				l.Mode = tasks.ModePlan
			}
			if l.Project == "" {
				l.Project = t.o.Project
			}
		}
		return fn(l)
	})
}

// read returns the list as committed; a list never written is empty.
func (t *tools) read(ctx context.Context, req *sdk.CallToolRequest, list string) (tasks.List, error) {
	name, err := t.listName(list, req.Session)
	if err != nil {
		return tasks.List{}, err
	}
	l, err := t.o.Store.TaskList(ctx, name)
	if tally.ErrorCode(err) == tally.CodeNotFound {
		return tasks.List{Name: name}, nil
	}
	return l, err
}

func (t *tools) taskCreate(ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error) {
	var a taskCreateArgs
	if err := decodeArgs(req.Params.Arguments, &a, args); err != nil {
		return nil, err
	}
	var res tasks.CreateResult
	l, err := t.update(ctx, req, a.List, func(l *tasks.List) error {
		var err error
		res, err = l.Create(tasks.CreateArgs{Subject: a.Subject, Description: a.Description, ActiveForm: a.ActiveForm, Metadata: a.Metadata}, t.o.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return createResult(l, res), nil
}

func (t *tools) taskUpdate(ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error) {
	var a taskUpdateArgs
	if err := decodeArgs(req.Params.Arguments, &a, args); err != nil {
		return nil, err
	}
	in, del, err := a.updateArgs()
	if err != nil {
		return nil, err
	}
	var ans updateAnswer
	l, err := t.update(ctx, req, a.List, func(l *tasks.List) error {
		var err error
		ans, err = applyUpdate(l, in, del, t.o.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return updateResult(l, in.ID, ans), nil
}

// applyUpdate is TaskUpdate's change to l: del (status "deleted") removes
// the task and ignores the other arguments, as Claude Code's TaskUpdate
// does; anything else is an update under the list's rules.
func applyUpdate(l *tasks.List, in tasks.UpdateArgs, del bool, now time.Time) (updateAnswer, error) {
	if del {
		was, err := l.Delete(in.ID, now)
		return updateAnswer{fields: []string{"deleted"}, change: &statusChangeOut{From: was.String(), To: "deleted"}}, err
	}
	res, err := l.Update(in, now)
	ans := updateAnswer{fields: res.Changed, nudge: res.VerificationDue}
	if sc := res.StatusChange; sc != nil {
		ans.change = &statusChangeOut{From: sc.From.String(), To: sc.To.String()}
	}
	return ans, err
}

func (t *tools) taskList(ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error) {
	var a taskListArgs
	if err := decodeArgs(req.Params.Arguments, &a, args); err != nil {
		return nil, err
	}
	l, err := t.read(ctx, req, a.List)
	if err != nil {
		return nil, err
	}
	return listResult(l), nil
}

func (t *tools) taskGet(ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error) {
	var a taskGetArgs
	if err := decodeArgs(req.Params.Arguments, &a, args); err != nil {
		return nil, err
	}
	if err := requireTaskID(a.TaskID); err != nil {
		return nil, err
	}
	l, err := t.read(ctx, req, a.List)
	if err != nil {
		return nil, err
	}
	return getResult(l, string(a.TaskID)), nil
}

func (t *tools) todoWrite(ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error) {
	var a todoWriteArgs
	if err := decodeArgs(req.Params.Arguments, &a, args); err != nil {
		return nil, err
	}
	if a.Todos == nil {
		// Hermes: a call without todos reads the list.
		l, err := t.read(ctx, req, a.List)
		if err != nil {
			return nil, err
		}
		return todoResult(l, false), nil
	}
	todos, err := a.todos()
	if err != nil {
		return nil, err
	}
	var nudge bool
	l, err := t.update(ctx, req, a.List, func(l *tasks.List) error {
		var err error
		nudge, err = l.WriteTodos(todos, a.Merge, t.o.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return todoResult(l, nudge), nil
}

func (t *tools) updatePlan(ctx context.Context, req *sdk.CallToolRequest, args []string) (*sdk.CallToolResult, error) {
	var a updatePlanArgs
	if err := decodeArgs(req.Params.Arguments, &a, args); err != nil {
		return nil, err
	}
	plan, err := a.steps()
	if err != nil {
		return nil, err
	}
	var nudge bool
	l, err := t.update(ctx, req, a.List, func(l *tasks.List) error {
		var err error
		nudge, err = l.UpdatePlan(a.Explanation, plan, t.o.Now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return planResult(l, nudge), nil
}
