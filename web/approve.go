package web

import (
	"errors"
	"net/http"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// approvePlan is POST /api/tasks/{name}/approve, the page's Approve plan
// button: it switches the list from plan mode to execution through
// tasks.SwitchMode, as `tally tasks approve NAME` does, and answers the
// list's session as it now is. The change reaches every page through the
// stream like any other.
func (s *Server) approvePlan(w http.ResponseWriter, r *http.Request) {
	now := s.o.Now()
	l, _, err := tasks.SwitchMode(r.Context(), s.o.Lists, r.PathValue("name"), tasks.ModeExecution, now)
	if err != nil {
		writeError(w, statusOf(err), plainMessage(err))
		return
	}
	rec := l.Record()
	writeJSON(w, http.StatusOK, rec.Session(now))
}

// plainMessage is an error's message for a person, without the name of
// the operation that failed.
func plainMessage(err error) string {
	var te *tally.Error
	if errors.As(err, &te) && te.Err != nil {
		return te.Err.Error()
	}
	return err.Error()
}
