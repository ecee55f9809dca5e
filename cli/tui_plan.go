package cli

import (
	"context"
	"sync"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/tui"
)

// planHeadliner gives the Task Panel of a session that follows its
// project's plan the plan's line ("2/5 → T003 [S2]", planview.PanelLine): a
// session that writes progress markers, or keeps no list of its own, in a
// project with a plan folder. Views are kept per project until the plan
// changes, so drawing a frame reads no file.
type planHeadliner struct {
	plans *planner.Planner
	mu    sync.Mutex
	views map[string]planView
}

type planView struct {
	v  planner.View
	ok bool
}

// maxHeadlines bounds the projects whose views are kept.
const maxHeadlines = 256

func newPlanHeadliner(ctx context.Context, plans *planner.Planner) *planHeadliner {
	h := &planHeadliner{plans: plans, views: map[string]planView{}}
	sub := plans.Subscribe(64)
	go func() {
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case c, ok := <-sub.C:
				if !ok {
					return
				}
				h.mu.Lock()
				delete(h.views, c.Project)
				h.mu.Unlock()
			}
		}
	}()
	return h
}

var panelStates = map[planner.Stage]tui.PanelState{
	planner.StageEmpty: tui.PanelEmpty, planner.StagePlanning: tui.PanelPlanning, planner.StageWorking: tui.PanelWorking,
	planner.StageBlocked: tui.PanelBlocked, planner.StageComplete: tui.PanelComplete,
}

func (h *planHeadliner) Headline(s *tally.Session) (tui.Headline, bool) {
	project := s.LocalProject()
	if project == "" || (len(s.Markers) == 0 && s.Progress.Total > 0) {
		return tui.Headline{}, false
	}
	h.mu.Lock()
	pv, seen := h.views[project]
	h.mu.Unlock()
	if !seen {
		v, ok, err := h.plans.ViewFor(project)
		pv = planView{v: v, ok: ok && err == nil}
		h.mu.Lock()
		if len(h.views) >= maxHeadlines {
			clear(h.views)
		}
		h.views[project] = pv
		h.mu.Unlock()
	}
	if !pv.ok {
		return tui.Headline{}, false
	}
	return tui.Headline{State: panelStates[pv.v.Stage], Done: pv.v.Done, Total: pv.v.Total, Line: pv.v.Line, Plan: pv.v.Tasks}, true
}
