package cli

import (
	"context"
	"net/http"
	"os"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally/internal/version"
	"github.com/tallyhq/tally/mcp"
	"github.com/tallyhq/tally/tasks"
)

type mcpOptions struct {
	*app
	List       string
	PlanFirst  bool
	NoProtocol bool
}

func (a *app) mcpCommand() *cobra.Command {
	o := &mcpOptions{app: a}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve durable task tools to an agent over MCP (stdio)",
		Long: `Serve Tally's task tools over MCP on standard input and output, for an agent to
start as its MCP server (claude mcp add tally -- tally mcp; see mcp/REGISTER.md
for Codex and Gemini CLI).

Tools: TaskCreate, TaskUpdate, TaskList, TaskGet (Claude Code's shapes),
todo_write (replace, or merge by id) and update_plan (Codex). Every call is one
transaction in the store (--db), so lists survive restarts, several agents can
share one, and each list shows in watch, sessions and the dashboard as the
session tally:LIST.

A call's list is its "list" argument, else --list (env TALLY_LIST), else the
agent session's own list when the agent says which session started the server
(Claude Code does: claude-SESSION, the list tally hook shows that session),
else one list per MCP session.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCP(cmd.Context(), o) },
	}
	cmd.Flags().StringVar(&o.List, "list", a.env.Getenv("TALLY_LIST"), "the list calls use when they name none (env TALLY_LIST)")
	cmd.Flags().BoolVar(&o.PlanFirst, "plan", false, "start new lists in plan mode: execution waits for 'tally tasks approve LIST'")
	cmd.Flags().BoolVar(&o.NoProtocol, "no-protocol", false, "leave the plan protocol out of the instructions: the agent's SessionStart hook gives it (tally setup claude registers the server so)")
	return cmd
}

// openTaskStore opens the store, which keeps the task lists.
func (a *app) openTaskStore(ctx context.Context) (tasks.Store, func(), error) {
	st, err := a.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

func runMCP(ctx context.Context, o *mcpOptions) error {
	if o.List == "" {
		o.List = sessionList(o.env.Getenv)
	}
	if o.List != "" {
		if err := tasks.CheckName(o.List); err != nil {
			return err
		}
	}
	st, closeStore, err := o.openTaskStore(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	in := o.env.In
	if in == nil {
		in = os.Stdin
	}
	return mcp.ServeStdio(ctx, mcp.Options{Store: st, List: o.List, PlanFirst: o.PlanFirst, Project: o.env.Dir,
		Protocol: o.protocol(), Now: o.env.Now, Version: version.String()}, in, o.env.Out)
}

// protocol is the plan protocol the instructions end with: none with
// --no-protocol, where the agent's SessionStart hook gives it (once in
// the context, not twice).
func (o *mcpOptions) protocol() string {
	if o.NoProtocol {
		return ""
	}
	return o.planProtocol(o.env.Dir)
}

// mcpExtra is what tally serve mounts besides the dashboard: the same task
// tools over streamable HTTP at /mcp, behind the server's token check.
func mcpExtra(st mcp.Store, env *Env) map[string]http.Handler {
	return map[string]http.Handler{"/mcp": mcp.NewHTTPHandler(mcp.Options{Store: st, Project: env.Dir, Now: env.Now, Version: version.String()})}
}
