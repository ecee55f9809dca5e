package cli

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/store"
)

// planFolderOf is the rule every command finds a project's plan folder
// by: the project is the git root of the folder an agent (or the person)
// works in, else that folder; its plan folder is the one the settings
// give it ([plans], docs/por by default), and must lie inside it. A
// folder that is not an absolute path (a log's "cwd": ".") names no
// project: resolving it would find Tally's own working folder.
func planFolderOf(c *config.Config) func(dir string) plan.Folder {
	return func(dir string) plan.Folder {
		if !filepath.IsAbs(dir) {
			return plan.Folder{}
		}
		root := gitRoot(dir)
		return plan.Folder{Root: root, Dir: c.Plans.PlanFolder(root)}
	}
}

// newPlanner builds what applies the markers an indexer reads to the
// plans of their projects, reporting problems to diags, and their news to
// the notifier a live command starts (runLive).
func (a *app) newPlanner(c *config.Config, st store.Store, diags *diagnostics) *planner.Planner {
	return planner.New(planner.Options{Folder: planFolderOf(c), Store: st, Now: a.env.Now, OnDiagnostic: diags.add,
		OnEvent: func(e planner.Event) {
			if n := a.notices.Load(); n != nil {
				n.PublishPlan(notify.Session{ID: e.Session, Project: e.Project}, planNews(e))
			}
		}})
}

// planKinds are the notifications plan news can be.
var planKinds = map[planner.EventKind]notify.Kind{
	planner.EventStepBlocked:  notify.KindStepBlocked,
	planner.EventTaskComplete: notify.KindTaskComplete,
	planner.EventPlanComplete: notify.KindPlanComplete,
}

func planNews(e planner.Event) notify.PlanNews {
	return notify.PlanNews{Kind: planKinds[e.Kind], Task: e.Task, TaskName: e.TaskName, Step: e.Step, Reason: e.Reason,
		Done: e.Done, Total: e.Total, At: e.At}
}

// planNotifier is the notifier of a live command, when the settings ask
// for plan news (notify.events names step_blocked, task_complete or
// plan_complete) and name somewhere to send it; nil otherwise.
func (a *app) planNotifier(ctx context.Context, diags *diagnostics) *notify.Notifier {
	c, err := a.loadConfig(settingFlags{})
	if err != nil {
		return nil // newPlanner read the same file: it reported the error
	}
	o, _, err := notifyOptions(c, nil, a.env.Now)
	if err != nil {
		diags.add(tally.Diagnostic{Msg: "plan notifications: " + err.Error()})
		return nil
	}
	wanted := false
	for _, k := range planKinds {
		wanted = wanted || o.Kinds.Has(k)
	}
	if !wanted || len(o.Sinks) == 0 {
		return nil
	}
	o.OnFailure = a.logNotifyFailure
	return notify.New(ctx, o)
}

// applyPlans applies the markers a scan committed before the command goes
// on: history's markers are in the plans before anything is shown.
func (a *app) applyPlans(ctx context.Context, diags *diagnostics) {
	if err := a.plans.ApplyPending(ctx); err != nil && ctx.Err() == nil {
		diags.add(tally.Diagnostic{Msg: "plans: " + err.Error()})
	}
}

// runLive follows the agents' homes with ix and applies the markers it
// commits, telling their news when the settings ask for it, until ctx
// ends.
func (a *app) runLive(ctx context.Context, ix *index.Indexer) error {
	if a.notices.Load() == nil { // else the command's notifier takes them (startNotifying)
		if n := a.planNotifier(ctx, a.diags); n != nil {
			a.notices.Store(n)
			defer n.Close()
		}
	}
	pctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.plans.Run(pctx) }()
	err := ix.Run(ctx)
	cancel()
	return errors.Join(err, <-done)
}

// planLines are the plan lines (plan.PanelLine) of the projects that keep
// a plan, by project. A settings file that cannot be read leaves them
// out: the listing is what was asked for.
func (a *app) planLines(projects ...string) map[string]string {
	c, err := a.loadConfig(settingFlags{})
	if err != nil {
		return nil
	}
	folderOf := planFolderOf(c)
	out := map[string]string{}
	for _, p := range projects {
		if _, done := out[p]; done || p == "" {
			continue
		}
		if f := folderOf(p); f.Dir == "" {
			continue
		} else if pl, err := f.Load(); err == nil {
			out[p] = plan.PanelLine(pl)
		}
	}
	return out
}

// planProtocol is the Task Management Protocol block for an agent working
// in dir, when its project keeps a plan folder: what tally mcp's
// instructions and the SessionStart hook add, so agents write progress
// markers without being told by hand. "" otherwise, and when the settings
// cannot be read (the agent's tools must work regardless).
func (a *app) planProtocol(dir string) string {
	if !filepath.IsAbs(dir) {
		return ""
	}
	c, err := a.loadConfig(settingFlags{})
	if err != nil {
		return ""
	}
	f := planFolderOf(c)(dir)
	return planner.Protocol(f.Root, f.Dir)
}
