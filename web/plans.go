package web

import (
	"context"
	"net/http"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/planner"
)

// The stream's events about plans: a project's plan as it now is, and a
// project whose plan folder went away.
const (
	eventPlanUpdated = "plan_updated"
	eventPlanRemoved = "plan_removed"
)

// Plans is what the server needs of the plans of projects: each one's
// view, and word when one changed (*planner.Planner is one).
type Plans interface {
	ViewFor(project string) (planner.View, bool, error)
	Subscribe(buf int) *broker.Subscription[planner.Change]
}

// planList is GET /api/plans: the plans of the projects of the sessions a
// snapshot holds.
type planList struct {
	Plans []planner.View `json:"plans"`
}

// planGone is the data of a plan_removed event.
type planGone struct {
	Project string `json:"project"`
}

// planNews is a plan change with its view read, on its way to the hub.
type planNews struct {
	project string
	view    planner.View
	ok      bool
}

// planBuffer is how many plan changes may wait for the feed; past it
// they are dropped, and the next change of the same plan says it all.
const planBuffer = 256

// views reads the plans of the projects of sessions, each project once,
// in the order the sessions name them. A plan that cannot be read is left
// out: the board shows the sessions either way.
func (s *Server) views(sessions []tally.Session) []planner.View {
	out := []planner.View{}
	if s.o.Plans == nil {
		return out
	}
	seen := map[string]bool{}
	for i := range sessions {
		p := sessions[i].LocalProject()
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if v, ok, err := s.o.Plans.ViewFor(p); ok && err == nil {
			out = append(out, v)
		}
	}
	return out
}

// listPlans is GET /api/plans.
func (s *Server) listPlans(w http.ResponseWriter, r *http.Request) {
	now := s.o.Now()
	recs, err := s.o.snapshotRecords(r.Context(), now)
	if err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	sessions := make([]tally.Session, len(recs))
	for i := range recs {
		sessions[i] = recs[i].Session(now)
	}
	writeJSON(w, http.StatusOK, planList{Plans: s.views(sessions)})
}

// feedPlans reads each changed plan off the hub's goroutine (reading a
// plan is file IO) and hands the hub what to send.
func (s *Server) feedPlans(ctx context.Context, sub *broker.Subscription[planner.Change], out chan<- planNews) {
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case c, ok := <-sub.C:
			if !ok {
				return
			}
			v, found, err := s.o.Plans.ViewFor(c.Project)
			if err != nil {
				continue // unreadable now; its next change will say
			}
			select {
			case out <- planNews{project: c.Project, view: v, ok: found}:
			case <-ctx.Done():
				return
			case <-time.After(s.o.WriteTimeout):
				// The hub is stuck: a later change of this plan says it all.
			}
		}
	}
}

// applyPlan sends a plan's change to every client.
func (h *hub) applyPlan(n planNews) {
	if n.ok {
		h.emit(eventPlanUpdated, n.view)
		return
	}
	h.emit(eventPlanRemoved, planGone{Project: n.project})
}
