package web

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tallyhq/tally"
)

// A team server decides for agents on its members' machines without ever
// connecting to one: a decision on a pushed request is taken in the
// server's store (decideRequest), and the machine's tally push, which
// asks GET /api/push/decisions while its store holds an open request,
// takes it home to the hook waiting there.

// Bounds of GET /api/push/decisions.
const (
	// MaxDecisionWait bounds how long one ask waits for a decision; the
	// pusher asks again at once.
	MaxDecisionWait = 25 * time.Second
	// maxAskedRequests bounds the ids one ask names: a machine has a few
	// agents waiting at once, not hundreds.
	maxAskedRequests = 64
	// relayRecheck is how often a waiting ask reads the store again: a
	// decision this replica takes wakes it at once, one another replica
	// took when this one's indexer tells of the record it changed
	// (decidedElsewhere), and this is for what neither caught.
	relayRecheck = time.Second
)

// decided wakes the asks waiting for decisions when this server takes
// one.
type decided struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait is closed at the next decision.
func (d *decided) wait() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ch == nil {
		d.ch = make(chan struct{})
	}
	return d.ch
}

func (d *decided) notify() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ch != nil {
		close(d.ch)
		d.ch = nil
	}
}

// Decisions is the answer of GET /api/push/decisions: the requests asked
// about that are decided, with who decided, from where and when.
type Decisions struct {
	Decisions []tally.Request `json:"decisions"`
}

// pushDecisions is GET /api/push/decisions?id=…&wait=SECONDS: of the
// requests the ids name, those decided on this server, answered as soon as
// there is one or after wait (at most MaxDecisionWait) with none. It needs
// the push scope, and a push token learns only the decisions on its own
// machine's (and user's) sessions: any other id reads as not decided.
func (s *Server) pushDecisions(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["id"]
	if len(ids) > maxAskedRequests {
		writeError(w, http.StatusBadRequest, "at most "+strconv.Itoa(maxAskedRequests)+" request ids an ask")
		return
	}
	var wait time.Duration
	if v := r.URL.Query().Get("wait"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "wait is a number of seconds")
			return
		}
		wait = min(time.Duration(n)*time.Second, MaxDecisionWait)
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	recheck := time.NewTicker(relayRecheck)
	defer recheck.Stop()
	for {
		woken := s.decided.wait()
		out, err := s.decisionsFor(r, ids)
		if err != nil {
			s.fail(w, err)
			return
		}
		if len(out) > 0 {
			writeJSON(w, http.StatusOK, Decisions{Decisions: out})
			return
		}
		select {
		case <-s.hub.done:
			// The server stops: the pusher asks again, elsewhere.
			writeJSON(w, http.StatusOK, Decisions{Decisions: []tally.Request{}})
			return
		case <-ctx.Done():
			if r.Context().Err() == nil {
				writeJSON(w, http.StatusOK, Decisions{Decisions: []tally.Request{}})
			}
			return
		case <-woken:
		case <-recheck.C:
		}
	}
}

// decisionsFor reads the decided requests among ids that r's token may
// learn.
func (s *Server) decisionsFor(r *http.Request, ids []string) ([]tally.Request, error) {
	var out []tally.Request
	for _, id := range ids {
		req, err := s.o.Requests.Request(r.Context(), id)
		switch {
		case tally.ErrorCode(err) == tally.CodeNotFound:
			continue
		case err != nil:
			return nil, err
		case req.Verdict == "" || req.Verdict == tally.VerdictElsewhere:
			continue
		}
		ok, err := s.mayLearn(r, req.Session)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, req)
		}
	}
	return out, nil
}

// mayLearn tells whether r's token speaks for the origin of session: a
// push token for the machine (and user) it was made for; the server's own
// token, or no token where none is required, for any.
func (s *Server) mayLearn(r *http.Request, session string) (bool, error) {
	g, ok := grantFrom(r)
	if !ok || g.all {
		return true, nil
	}
	rec, err := s.o.Store.Record(r.Context(), session)
	switch {
	case tally.ErrorCode(err) == tally.CodeNotFound || tally.ErrorCode(err) == tally.CodeConflict:
		return false, nil
	case err != nil:
		return false, err
	}
	t := g.token
	return rec.ID == session && t.Machine != "" && rec.Machine == t.Machine && (t.User == "" || rec.User == t.User), nil
}

// adoptPushed makes the store hold the request id of a session pushed
// from another machine, as its record shows it open, so a decision can
// be taken on it here (and relayed through GET /api/push/decisions). A
// request the store holds already, or none pushed open by that id, is
// left to DecideRequest to take or refuse; a machine whose tally push
// does not take decisions home (Record.Relayed) is answered there.
func (s *Server) adoptPushed(ctx context.Context, id, session string) error {
	if _, err := s.o.Requests.Request(ctx, id); tally.ErrorCode(err) != tally.CodeNotFound {
		return nil
	}
	rec, err := s.o.Store.Record(ctx, session)
	if err != nil || rec.ID != session || rec.Machine == "" {
		return nil
	}
	if !rec.Relayed {
		return tally.Errorf(tally.CodeConflict, "DecideRequest", "session %s is answered on %s: its tally push does not take decisions home (tally allow or tally deny there)", session, rec.Machine)
	}
	for _, p := range rec.Requests {
		if p.ID != id || p.Session != session {
			continue
		}
		if !p.Open(s.o.Now()) {
			return nil
		}
		err := s.o.Requests.AskRequest(ctx, p)
		if tally.ErrorCode(err) == tally.CodeConflict {
			return nil // adopted meanwhile by another decision
		}
		return err
	}
	return nil
}

// relays tells whether this server decides for pushed sessions: it keeps
// requests and takes pushes.
func (s *Server) relays() bool { return s.o.Requests != nil && s.o.Ingest != nil }

// decidedElsewhere wakes the waiting asks when a pushed record the
// indexer tells of shows a decision: another replica's, through the
// store's notifications.
func (s *Server) decidedElsewhere(rec *tally.Record) {
	if rec.Machine == "" {
		return
	}
	for i := range rec.Requests {
		switch rec.Requests[i].Verdict {
		case tally.VerdictAllow, tally.VerdictAlways, tally.VerdictDeny:
			s.decided.notify()
			return
		}
	}
}
