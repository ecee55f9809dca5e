package web

import (
	"context"
	"io"
	"net/http"

	"github.com/tallyhq/tally/hookservice"
)

// Hooks answers agents' hook calls (*hookservice.Service, the service
// tally hook runs): the call's JSON in, the answer in the agent's hook
// format out, or nothing to say. It answers within about a second
// whatever happens, as a hook must.
type Hooks interface {
	Knows(agent string) bool
	Answer(ctx context.Context, c hookservice.Call)
}

// hook is POST /api/hook/{agent}: an agent's hook delivered over HTTP
// (Claude Code's "http" hook type posts the same JSON a command hook reads
// on stdin, and reads the answer from the response body). It is a write,
// behind the same token and origin rules as every other. ?guard-stop=1
// turns the stop guard on, as tally hook's --guard-stop does. Failures
// answer nothing, with 200: a broken Tally must not break the agent.
func (s *Server) hook(w http.ResponseWriter, r *http.Request) {
	payload, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "the hook call is too large or was cut short: "+err.Error())
		return
	}
	agent := r.PathValue("agent")
	if !s.o.Hooks.Knows(agent) {
		writeError(w, http.StatusNotFound, "no hooks for agent "+agent)
		return
	}
	guard := r.URL.Query().Get("guard-stop")
	var answer []byte
	s.o.Hooks.Answer(r.Context(), hookservice.Call{
		Agent: agent, GuardStop: guard == "1" || guard == "true", Start: s.o.Now(),
		Read:  func() ([]byte, error) { return payload, nil },
		Reply: func(out []byte) error { answer = out; return nil },
	})
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if len(answer) == 0 {
		w.WriteHeader(http.StatusOK)
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(answer)
}
