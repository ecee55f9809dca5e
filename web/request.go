package web

import (
	"encoding/json"
	"io"
	"net"
	"net/http"

	"github.com/tallyhq/tally"
)

// maxDecisionBody bounds a decision's body: a verdict and a message of at
// most tally.MaxRequestMessage bytes, escaped.
const maxDecisionBody = 8*tally.MaxRequestMessage + 1024

// decisionBody is what the page (or any client with a write token) posts
// to decide a request.
type decisionBody struct {
	// Session must be the request's own: a decision names the request it
	// answers and the session it is of.
	Session string `json:"session"`
	Verdict string `json:"verdict"`
	Message string `json:"message,omitempty"`
}

// decideRequest is POST /api/requests/{id}, the card's Allow / Always /
// Deny buttons: it takes the decision on the request whose one-time id the
// path names, once (the store refuses a second, an expired one, or one
// naming another session), records who took it and from where, and
// answers the request as decided. The agent's hook, waiting, finds it
// within its poll; every page sees it through the stream. A request of a
// session pushed from another machine is taken into this store as its
// record shows it, decided here, and relayed to that machine's tally push
// (GET /api/push/decisions), which answers the hook waiting there. Like every
// write it needs the write scope, or the local board's own origin.
func (s *Server) decideRequest(w http.ResponseWriter, r *http.Request) {
	var b decisionBody
	if err := json.NewDecoder(io.LimitReader(r.Body, maxDecisionBody)).Decode(&b); err != nil {
		writeError(w, http.StatusBadRequest, "want a JSON object {session, verdict, message}")
		return
	}
	v, err := tally.ParseVerdict(b.Verdict)
	if err != nil {
		s.fail(w, err)
		return
	}
	if b.Session == "" {
		writeError(w, http.StatusBadRequest, "a decision names the session of its request")
		return
	}
	if s.relays() {
		if err := s.adoptPushed(r.Context(), r.PathValue("id"), b.Session); err != nil {
			s.fail(w, err)
			return
		}
	}
	by, from := decider(r)
	got, err := s.o.Requests.DecideRequest(r.Context(), tally.Decision{
		ID: r.PathValue("id"), Session: b.Session, Verdict: v, Message: b.Message,
		By: by, From: from, At: s.o.Now(),
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.decided.notify()
	writeJSON(w, http.StatusOK, tally.RequestView{Request: got})
}

// decider is who took a decision posted in r, and from where: the token's
// name (or its id), the server's own token, or the local board; and the
// client's address as the server saw it.
func decider(r *http.Request) (by, from string) {
	by = "the local board"
	if g, ok := grantFrom(r); ok {
		switch {
		case g.all:
			by = "the server's token"
		case g.token.Name != "":
			by = g.token.Name
		default:
			by = "token " + g.token.ID
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return by, "board, " + host
}
