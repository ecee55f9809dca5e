package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

type tasksOptions struct {
	*app
	List string
	Full bool
	JSON bool
}

func (a *app) tasksCommand() *cobra.Command {
	o := &tasksOptions{app: a}
	cmd := &cobra.Command{
		Use:   "tasks [LIST]",
		Short: "Show the task lists agents keep through tally mcp (a project's plan is 'tally task')",
		Long: `Without LIST, list the task lists tally mcp keeps: name, mode, X/Y done and
the current task. With LIST, show that list like 'tally show'. This is not
'tally task', which shows a project's plan (the task files in docs/por).

A list in plan mode refuses execution (starting or completing tasks,
todo_write, update_plan) until it is approved:

  tally tasks approve LIST   switch LIST from plan to execution
  tally tasks plan LIST      switch LIST back to plan mode (creating it if needed)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.List = args[0]
			}
			return runTasks(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Full, "full", false, "list every task, completed ones too, untruncated")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON: the list's session form with its mode")
	cmd.AddCommand(a.tasksModeCommand("approve", tasks.ModeExecution,
		"Approve a list's plan: switch it from plan mode to execution"),
		a.tasksModeCommand("plan", tasks.ModePlan,
			"Switch a list to plan mode: execution waits for approval"))
	return cmd
}

// taskListJSON is a list as --json prints it.
type taskListJSON struct {
	Name       string        `json:"name"`
	Mode       tasks.Mode    `json:"mode"`
	Generation int           `json:"generation"`
	Session    tally.Session `json:"session"`
}

func runTasks(ctx context.Context, o *tasksOptions) error {
	st, closeStore, err := o.openTaskStore(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	if o.List == "" {
		lists, err := st.TaskLists(ctx)
		if err != nil {
			return err
		}
		return o.renderLists(lists)
	}
	if err := tasks.CheckName(o.List); err != nil {
		return err
	}
	l, err := st.TaskList(ctx, o.List)
	if err != nil {
		return err
	}
	rec := l.Record()
	s := rec.Session(o.now())
	if o.JSON {
		return writeJSON(o.env.Out, taskListJSON{Name: l.Name, Mode: l.Mode, Generation: l.Generation, Session: s})
	}
	if l.Mode == tasks.ModePlan {
		fmt.Fprintf(o.env.Out, "plan mode: waiting for approval (tally tasks approve %s)\n", l.Name)
	}
	width := o.env.width()
	if o.Full {
		width = 0
	}
	return RenderShow(o.env.Out, s, ShowOptions{Full: o.Full, Width: width, Now: o.now(), Home: o.env.Home, Color: o.env.color()})
}

func (o *tasksOptions) renderLists(lists []tasks.List) error {
	if o.JSON {
		out := make([]taskListJSON, 0, len(lists))
		for _, l := range lists {
			rec := l.Record()
			out = append(out, taskListJSON{Name: l.Name, Mode: l.Mode, Generation: l.Generation, Session: rec.Session(o.now())})
		}
		return writeJSON(o.env.Out, out)
	}
	if len(lists) == 0 {
		_, err := fmt.Fprintln(o.env.Out, "No task lists yet: an agent creates one by calling tally mcp's tools.")
		return err
	}
	tw := tabwriter.NewWriter(o.env.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LIST\tMODE\tDONE\tCURRENT")
	for _, l := range lists {
		p := tally.ProgressOf(l.Items())
		cur := ""
		if p.Current != nil {
			cur = p.Current.Label()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\n", l.Name, l.Mode, p.Done, p.Total, cur)
	}
	return tw.Flush()
}

func (a *app) tasksModeCommand(use string, mode tasks.Mode, short string) *cobra.Command {
	return &cobra.Command{
		Use:   use + " LIST",
		Short: short,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{err: errArgs("tasks " + use + " needs one LIST name")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTasksMode(cmd.Context(), a, a.env.Out, args[0], mode)
		},
	}
}

// runTasksMode switches a list's mode through tasks.SwitchMode, as the
// dashboard's Approve plan button does.
func runTasksMode(ctx context.Context, a *app, out io.Writer, name string, mode tasks.Mode) error {
	st, closeStore, err := a.openTaskStore(ctx)
	if err != nil {
		return err
	}
	defer closeStore()
	sw, err := tasks.SwitchMode(ctx, st, name, mode, a.now())
	if tally.ErrorCode(err) == tally.CodeNotFound && mode == tasks.ModeExecution {
		return tally.Errorf(tally.CodeNotFound, "tasks approve",
			"no task list %q to approve: 'tally tasks' lists them; 'tally tasks plan %s' makes one in plan mode", name, name)
	}
	if err != nil {
		return err
	}
	switch {
	case sw.Created:
		_, err = fmt.Fprintf(out, "%s created, in plan mode: its tasks, once an agent writes them, wait for 'tally tasks approve %s'\n", name, name)
	case sw.Was == mode:
		_, err = fmt.Fprintf(out, "%s is already in %s mode\n", name, mode)
	case mode == tasks.ModeExecution:
		_, err = fmt.Fprintf(out, "%s approved: the plan is now in execution\n", name)
	default:
		_, err = fmt.Fprintf(out, "%s is in plan mode: execution waits for 'tally tasks approve %s'\n", name, name)
	}
	return err
}
