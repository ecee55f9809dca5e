package web

import (
	"context"
	"io"
	"net/http"
)

// Hooks answers an agent's hook call: the call's JSON in, the answer in
// the agent's hook format out (nil: nothing to say). known is false for
// an agent Tally has no hooks for. It answers within about a second
// whatever happens, as a hook must.
type Hooks interface {
	AnswerHook(ctx context.Context, agent string, guardStop bool, payload []byte) (answer []byte, known bool)
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
	guard := r.URL.Query().Get("guard-stop")
	answer, known := s.o.Hooks.AnswerHook(r.Context(), r.PathValue("agent"), guard == "1" || guard == "true", payload)
	if !known {
		writeError(w, http.StatusNotFound, "no hooks for agent "+r.PathValue("agent"))
		return
	}
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
