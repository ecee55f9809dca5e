package cli

import (
	"path/filepath"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/planview"
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

// planKinds are the notifications plan news can be.
var planKinds = map[planner.EventKind]notify.Kind{
	planner.EventStepBlocked:  notify.KindStepBlocked,
	planner.EventTaskComplete: notify.KindTaskComplete,
	planner.EventPlanComplete: notify.KindPlanComplete,
}

func planNews(e planner.Event) notify.PlanNews {
	return notify.PlanNews{Kind: planKinds[e.Kind], Task: e.Task, TaskName: e.TaskName, Step: e.Step, Reason: e.Reason,
		Done: e.Done, Total: e.Total, Quick: e.Quick, At: e.At}
}

// planLines are the plan lines (planview.PanelLine) of the projects that keep
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
		f := folderOf(p)
		if f.Dir == "" {
			continue
		}
		pl, err := f.Load()
		if tally.ErrorCode(err) == tally.CodeNotFound {
			pl, err = plan.LoadKiro(p) // no plan folder: Kiro's specs, if any
		}
		if err == nil {
			out[p] = planview.PanelLine(pl)
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

// planStanding is where the plan of dir's project stands, in a line for an
// agent (planview.Standing: "T001 S2 next …"), "" where the project keeps
// no plan or it cannot be read: the SessionStart hook gives it with the
// protocol or the lists it gives back.
func (a *app) planStanding(dir string) string {
	if !filepath.IsAbs(dir) {
		return ""
	}
	c, err := a.loadConfig(settingFlags{})
	if err != nil {
		return ""
	}
	f := planFolderOf(c)(dir)
	if f.Dir == "" {
		return ""
	}
	p, err := f.Load()
	if err != nil {
		return ""
	}
	return planview.Standing(p)
}
