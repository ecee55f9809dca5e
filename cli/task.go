package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planview"
)

// planOptions are the flags every plan command takes.
type planOptions struct {
	*app
	Project string
	// root is the project folder() found.
	root string
}

func (o *planOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Project, "project", "",
		"the project whose plan to use (default: the git root of the current directory, else the current directory)")
}

// folder is the project's plan folder: --project's, else that of the
// git root of the working directory (else the working directory), as the
// settings give it ([plans]).
func (o *planOptions) folder() (plan.Folder, error) {
	c, err := o.loadConfig(settingFlags{})
	if err != nil {
		return plan.Folder{}, err
	}
	dir := o.env.Dir
	if o.Project != "" {
		if dir, err = filepath.Abs(o.Project); err != nil {
			return plan.Folder{}, &tally.Error{Code: tally.CodeInvalid, Op: "find project", Err: err}
		}
	}
	if dir == "" {
		return plan.Folder{}, tally.Errorf(tally.CodeUnavailable, "find project", "the working directory is unknown: pass --project")
	}
	f := planFolderOf(c)(dir)
	if f.Dir == "" {
		return plan.Folder{}, tally.Errorf(tally.CodeInvalid, "find project", "the project %q is not an absolute path", dir)
	}
	o.root, f.Now = f.Root, o.env.Now
	return f, nil
}

// load reads the project's plan folder; a project without one is "not
// found", with a hint of how one comes to be.
func (o *planOptions) load() (*plan.Plan, error) {
	f, err := o.folder()
	if err != nil {
		return nil, err
	}
	p, err := f.Load()
	if tally.ErrorCode(err) == tally.CodeNotFound {
		rel, _ := filepath.Rel(o.root, f.Dir)
		return nil, tally.Errorf(tally.CodeNotFound, "task", "no plan in %s: an agent plans into %s/T001-name/task.yaml (or: tally task new)",
			o.root, filepath.ToSlash(rel))
	}
	return p, err
}

// gitRoot is the nearest folder at or above dir holding .git (a folder,
// or a file in a worktree); dir itself if there is none.
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

type taskOptions struct {
	planOptions
	What  string // "", a task id, done, active or blocked
	Limit int
	JSON  bool
}

func (a *app) taskCommand() *cobra.Command {
	o := &taskOptions{planOptions: planOptions{app: a}}
	cmd := &cobra.Command{
		Use:   "task [T###|done|active|blocked]",
		Short: "Show the project's plan: the task files in docs/por and how far along they are",
		Long: `Show the project's plan: the tasks agents planned into docs/por/T###-slug/task.yaml,
which Tally moves along as agents write progress markers ("progress: T001.S1 done")
in their replies. This is not 'tally tasks', which shows the task lists agents keep
through tally mcp.

  tally task           progress, scope, and every task with X/Y and its current step
  tally task T003      one task: goal, status, each step with what done means, times
  tally task done      the complete tasks, latest first, with how long each took
  tally task active    the active tasks and their current steps
  tally task blocked   the steps an agent reported blocked, with the reason

A plan of 100 tasks or more is summarised (complete tasks folded, active ones,
the next 3 planned); --limit N does that with the next N planned.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.What = args[0]
			}
			return runTask(cmd.Context(), o)
		},
	}
	o.addFlags(cmd)
	cmd.Flags().IntVar(&o.Limit, "limit", 0, "summarise: show active tasks and the next N planned, count the rest")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON: the tasks with their computed progress, current step and times")
	cmd.AddCommand(a.taskNewCommand())
	return cmd
}

func runTask(_ context.Context, o *taskOptions) error {
	if o.Limit < 0 {
		return &usageError{err: errArgs("--limit must be 0 or more")}
	}
	p, err := o.load()
	if err != nil {
		return err
	}
	vo := planview.ViewOptions{Now: o.now(), Location: o.now().Location(), Limit: o.Limit}
	w := o.env.Out
	switch o.What {
	case "":
		if o.JSON {
			return writeJSON(w, planview.ReportOf(p))
		}
		return planview.RenderSummary(w, p, vo)
	case "done", "active", "blocked":
		if o.JSON {
			return writeJSON(w, filterTasks(p, o.What))
		}
		render := map[string]func(*plan.Plan) error{
			"done":    func(p *plan.Plan) error { return planview.RenderDone(w, p, vo) },
			"active":  func(p *plan.Plan) error { return planview.RenderActive(w, p, vo) },
			"blocked": func(p *plan.Plan) error { return planview.RenderBlocked(w, p, vo) },
		}[o.What]
		return render(p)
	}
	if o.JSON {
		t := p.Task(o.What)
		if t == nil {
			return planview.RenderTask(w, p, o.What, vo) // says why there is none
		}
		return writeJSON(w, planview.TaskReportOf(p, t))
	}
	return planview.RenderTask(w, p, o.What, vo)
}

// filterTasks are the reports of the done, active or blocked tasks.
func filterTasks(p *plan.Plan, what string) []planview.TaskReport {
	out := []planview.TaskReport{}
	for _, t := range p.Tasks {
		_, blocked := p.Blocked(t.ID)
		if what == "done" && t.Status == plan.TaskComplete || what == "active" && t.Status == plan.TaskActive || what == "blocked" && blocked {
			out = append(out, planview.TaskReportOf(p, t))
		}
	}
	return out
}

type taskNewOptions struct {
	planOptions
	Name  string
	Goal  string
	Steps []string
	Dones []string
}

func (a *app) taskNewCommand() *cobra.Command {
	o := &taskNewOptions{planOptions: planOptions{app: a}}
	cmd := &cobra.Command{
		Use:   `new "NAME" --goal GOAL --step STEP --done CRITERIA --step STEP --done CRITERIA…`,
		Short: "Add a task to the project's plan, numbered after the highest there is",
		Long: `Add a task to the project's plan: docs/por/T###-slug/task.yaml with the next number,
status planned and every step pending. Give 2 to 8 steps, each --step followed by its
--done (what "done" means for that step):

  tally task new "User Profile" --goal "Users can edit their profile" \
    --step "Design the form" --done "Mock-up agreed" \
    --step "Build it" --done "The form saves and shows errors"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{err: errArgs(`task new needs the task's name: tally task new "NAME" --goal … --step … --done …`)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = args[0]
			return runTaskNew(cmd.Context(), o)
		},
	}
	o.addFlags(cmd)
	cmd.Flags().StringVar(&o.Goal, "goal", "", "what done looks like for the whole task (required)")
	cmd.Flags().StringArrayVar(&o.Steps, "step", nil, "a step's name (repeat, in order)")
	cmd.Flags().StringArrayVar(&o.Dones, "done", nil, "what done means for the step before it (one per --step)")
	return cmd
}

func runTaskNew(_ context.Context, o *taskNewOptions) error {
	if len(o.Dones) != len(o.Steps) {
		return &usageError{err: errArgs(fmt.Sprintf("each --step needs its --done (got %d steps, %d dones)", len(o.Steps), len(o.Dones)))}
	}
	n := plan.NewTask{Name: o.Name, Goal: o.Goal}
	for i := range o.Steps {
		n.Steps = append(n.Steps, plan.NewStep{Name: o.Steps[i], Done: o.Dones[i]})
	}
	f, err := o.folder()
	if err != nil {
		return err
	}
	t, err := f.Create(n)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.env.Out, "Created %s %s (%d steps): %s\n", t.ID, t.Name, len(t.Steps),
		filepath.Join(f.Dir, t.Dir, plan.TaskFile))
	return err
}

type timelineOptions struct {
	planOptions
	JSON bool
}

func (a *app) timelineCommand() *cobra.Command {
	o := &timelineOptions{planOptions: planOptions{app: a}}
	cmd := &cobra.Command{
		Use:   "timeline",
		Short: "Show what happened to the project's plan, from its ledger",
		Long: `Show the project's plan ledger (docs/por/ledger.jsonl) as a timeline: tasks activated
and completed, steps done and blocked, scope changes, quick tasks, and the markers
Tally rejected or skipped, with why.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTimeline(cmd.Context(), o) },
	}
	o.addFlags(cmd)
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the ledger entries as JSON")
	return cmd
}

func runTimeline(_ context.Context, o *timelineOptions) error {
	if _, err := o.load(); err != nil {
		return err
	}
	f, err := o.folder()
	if err != nil {
		return err
	}
	entries, _, err := f.Entries()
	if err != nil {
		return err
	}
	if o.JSON {
		if entries == nil {
			entries = []plan.Entry{}
		}
		return writeJSON(o.env.Out, entries)
	}
	return planview.RenderTimeline(o.env.Out, entries, planview.ViewOptions{Now: o.now(), Location: o.now().Location()})
}
