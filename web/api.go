package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
)

const (
	// defaultListLimit bounds /api/sessions without limit=: a page needs
	// the recent sessions, not years of history.
	defaultListLimit = 200
	maxListLimit     = 10000
)

// sessionList is GET /api/sessions.
type sessionList struct {
	Sessions []tally.Session `json:"sessions"`
	// Projects names the projects of Sessions, among one another and the
	// projects the server names on its stream.
	Projects map[string]string `json:"projects"`
	// LastEventID is the stream position the list stands for: a stream
	// opened with ?lastEventId= this sends only what came after.
	LastEventID string     `json:"lastEventId"`
	Now         time.Time  `json:"now"`
	Thresholds  thresholds `json:"thresholds"`
	// Relay: the server decides for sessions pushed from other machines
	// (their tally push takes the decisions home).
	Relay bool `json:"relay,omitempty"`
}

// thresholds are those of tally.DeriveActivity, sent with every snapshot
// and session list: a page ages a session's activity between events by
// the server's own rule, never by a copy of it.
type thresholds struct {
	IdleAfterMs  int64 `json:"idleAfterMs"`
	EndedAfterMs int64 `json:"endedAfterMs"`
}

var activityThresholds = thresholds{
	IdleAfterMs:  tally.IdleAfter.Milliseconds(),
	EndedAfterMs: tally.EndedAfter.Milliseconds(),
}

// listQuery is what /api/sessions filters on: the store's filter, and
// what only a view can decide (activity depends on the clock).
type listQuery struct {
	store    tally.SessionFilter
	active   bool
	activity map[tally.Activity]bool
	q        string
	limit    int
}

func parseListQuery(v url.Values) (listQuery, error) {
	lq := listQuery{
		store: tally.SessionFilter{Agent: tally.Agent(v.Get("agent")), Project: v.Get("project"),
			Machine: v.Get("machine"), User: v.Get("user")},
		q:     strings.ToLower(v.Get("q")),
		limit: defaultListLimit,
	}
	switch v.Get("active") {
	case "", "0", "false":
	case "1", "true":
		lq.active = true
	default:
		return lq, fmt.Errorf("active must be 1 or 0, not %q", v.Get("active"))
	}
	if s := v.Get("activity"); s != "" {
		lq.activity = make(map[tally.Activity]bool)
		for _, w := range strings.Split(s, ",") {
			a, err := tally.ParseActivity(w)
			if err != nil {
				return lq, err
			}
			lq.activity[a] = true
		}
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxListLimit {
			return lq, fmt.Errorf("limit must be a number from 1 to %d, not %q", maxListLimit, s)
		}
		lq.limit = n
	}
	return lq, nil
}

// viewFiltered tells whether views must be filtered after the store
// query, so that the store cannot apply the limit.
func (lq listQuery) viewFiltered() bool { return lq.active || lq.activity != nil || lq.q != "" }

func (lq listQuery) keep(s *tally.Session) bool {
	if lq.active && s.Activity == tally.ActivityEnded {
		return false
	}
	if lq.activity != nil && !lq.activity[s.Activity] {
		return false
	}
	if lq.q != "" && !strings.Contains(strings.ToLower(s.Title), lq.q) &&
		!strings.Contains(strings.ToLower(s.Project), lq.q) && !strings.Contains(strings.ToLower(s.ID), lq.q) {
		return false
	}
	return true
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	lq, err := parseListQuery(r.URL.Query())
	if err != nil {
		writeError(w, http.StatusBadRequest, tally.UserMessage(err))
		return
	}
	// Read the position before the store: the store is committed before
	// an event is published, so the list is at least as new as it.
	at := s.hub.latest.Load()
	now := s.o.Now()
	f := lq.store
	if lq.active {
		f.Since = now.Add(-tally.EndedAfter) // the rest has ended by the clock
	}
	if !lq.viewFiltered() {
		f.Limit = lq.limit
	}
	recs, err := s.o.Store.Records(r.Context(), f)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := sessionList{Sessions: make([]tally.Session, 0, min(len(recs), lq.limit)), LastEventID: strconv.FormatUint(at, 10), Now: now, Thresholds: activityThresholds, Relay: s.relays()}
	for i := range recs {
		v := recs[i].Session(now)
		if !lq.keep(&v) {
			continue
		}
		out.Sessions = append(out.Sessions, v)
		if len(out.Sessions) == lq.limit {
			break
		}
	}
	out.Projects = s.listedNames(out.Sessions)
	writeJSON(w, http.StatusOK, out)
}

// listedNames names the projects of sessions among them and the projects
// the hub names, so that a page which goes on with the stream after the
// list shows no two projects alike.
func (s *Server) listedNames(sessions []tally.Session) map[string]string {
	paths := s.hub.knownProjects()
	for i := range sessions {
		paths = append(paths, sessions[i].Project)
	}
	all := projectNames(s.o.Home, paths)
	out := make(map[string]string)
	for i := range sessions {
		if p := sessions[i].Project; p != "" {
			out[p] = all[p]
		}
	}
	return out
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	rec, err := s.o.Store.Record(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rec.Session(s.o.Now()))
}

// httpStatus is the one table from domain error codes to HTTP statuses.
var httpStatus = map[tally.Code]int{
	tally.CodeInternal:    http.StatusInternalServerError,
	tally.CodeInvalid:     http.StatusBadRequest,
	tally.CodeNotFound:    http.StatusNotFound,
	tally.CodeConflict:    http.StatusConflict,
	tally.CodeUnavailable: http.StatusServiceUnavailable,
}

func statusOf(err error) int {
	if st, ok := httpStatus[tally.ErrorCode(err)]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// fail answers a request that failed with err: its status from the one
// table (httpStatus), its words from tally.UserMessage, without the
// operations of Tally's that met it. A failure of the server's own (a
// 5xx) is logged whole, operations and all, to ErrorLog.
func (s *Server) fail(w http.ResponseWriter, err error) {
	status := statusOf(err)
	if status >= http.StatusInternalServerError && s.o.ErrorLog != nil {
		s.o.ErrorLog.Printf("%v", err)
	}
	writeError(w, status, tally.UserMessage(err))
}

type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

// writeJSON encodes v with encoding/json's HTML escaping left on: text
// from agent logs is untrusted.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"error":"the response could not be encoded"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}
