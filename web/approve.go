package web

import (
	"net/http"

	"github.com/tallyhq/tally/tasks"
)

// approvePlan is POST /api/tasks/{name}/approve, the page's Approve plan
// button: it switches the list from plan mode to execution through
// tasks.SwitchMode, as `tally tasks approve NAME` does, and answers the
// list's session as it now is. The change reaches every page through the
// stream like any other.
func (s *Server) approvePlan(w http.ResponseWriter, r *http.Request) {
	now := s.o.Now()
	sw, err := tasks.SwitchMode(r.Context(), s.o.Lists, r.PathValue("name"), tasks.ModeExecution, now)
	if err != nil {
		s.fail(w, err)
		return
	}
	rec := sw.List.Record()
	writeJSON(w, http.StatusOK, rec.Session(now))
}
