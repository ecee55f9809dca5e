package hookservice

import (
	"context"
	"crypto/rand"
	"path/filepath"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
)

// recentDecision is how long after a decision taken elsewhere the agent's
// own permission notification for the same call is not a new need for
// the user: Claude Code sends it some seconds after asking, even when the
// hook answered meanwhile.
const recentDecision = 15 * time.Second

// ask answers a permission request with a decision taken elsewhere: it
// records the request (shown on the session's record at once), marks the
// session as waiting for its user (notified as any such wait), then waits
// up to ApprovalWait for a decision, looking every ApprovalPoll. Allowed
// or denied, the session works again; answered at the agent (a later call
// of the session closed the request) or not at all in time, it answers
// nothing, and the agent asks in its own way. Without a store, or with
// no wait set, it answers nothing at once: nothing is ever allowed by
// default.
func (s *Service) ask(k *call) hook.Answer {
	if k.st == nil || s.o.ApprovalWait <= 0 || k.wait == nil {
		return hook.Answer{}
	}
	ev, start := k.ev, k.opts.Now
	summary, detail := hook.Summarize(ev.ToolName, ev.ToolInput)
	r := tally.Request{
		ID: rand.Text(), Session: ev.SessionID, Agent: k.agent.Adapter.Agent(), Tool: hook.Line(ev.ToolName),
		Summary: summary, Detail: detail, Always: len(hook.SessionSuggestions(ev.Suggestions)) > 0, Project: project(ev.Cwd),
		AskedAt: start, ExpiresAt: start.Add(s.o.ApprovalWait),
	}
	ctx := k.wait.ctx
	wctx, cancel := context.WithTimeout(ctx, LockWait)
	err := k.st.AskRequest(wctx, r)
	cancel()
	if err != nil {
		k.log.printf("recording the request: %v: the agent asks in its own way", err)
		return hook.Answer{}
	}
	mark(ctx, k, start, tally.SignalAsking)
	k.wait.started()
	tick := time.NewTicker(s.o.ApprovalPoll)
	defer tick.Stop()
	// The bound counts from the call's start, by the service's clock.
	expire := time.NewTimer(r.ExpiresAt.Sub(s.o.Now()))
	defer expire.Stop()
	for {
		select {
		case <-ctx.Done():
			return hook.Answer{}
		case <-expire.C:
			k.log.printf("request %s: no decision within %v: the agent asks in its own way", r.ID, s.o.ApprovalWait)
			return hook.Answer{}
		case <-tick.C:
		}
		rctx, cancel := context.WithTimeout(ctx, StoreWait)
		got, err := k.st.Request(rctx, r.ID)
		cancel()
		if err != nil {
			k.log.printf("reading request %s: %v", r.ID, err)
			continue
		}
		switch got.Verdict {
		case "":
			continue
		case tally.VerdictElsewhere:
			return hook.Answer{}
		}
		mark(ctx, k, got.DecidedAt, tally.SignalWorking)
		return hook.Answer{Permission: &hook.Permission{Verdict: string(got.Verdict), Message: got.Message}}
	}
}

// project is the project a call's working directory names: none unless
// it is an absolute path.
func project(cwd string) string {
	if !filepath.IsAbs(cwd) {
		return ""
	}
	return filepath.Clean(cwd)
}

// mark tells the store what the call learned of the session: waiting for
// its user, or working again.
func mark(ctx context.Context, k *call, at time.Time, sig tally.Signal) {
	wctx, cancel := context.WithTimeout(ctx, LockWait)
	defer cancel()
	err := k.st.UpdateHook(wctx, k.ev.SessionID, at, func([]byte) ([]byte, tally.Signal, error) { return nil, sig, nil })
	if err != nil {
		k.log.printf("marking the session: %v", err)
	}
}

// closing answers by the rules after closing the session's open requests:
// a call that shows the session moving on (a tool's result, a stop, a new
// prompt) means its user answered at the agent itself.
func closing(ctx context.Context, k *call) hook.Answer {
	if k.st != nil {
		cctx, cancel := context.WithTimeout(ctx, LockWait)
		if _, err := k.st.CloseRequests(cctx, k.ev.SessionID, k.opts.Now); err != nil {
			k.log.printf("closing the session's requests: %v", err)
		}
		cancel()
	}
	return decide(ctx, k)
}

// notified answers the agent's permission notification by the rules,
// unless a decision taken elsewhere answered the call it is about: the
// user needs to do nothing more.
func notified(ctx context.Context, k *call) hook.Answer {
	if k.st != nil && k.ev.NotificationType == hook.PermissionPrompt {
		rctx, cancel := context.WithTimeout(ctx, StoreWait)
		reqs, err := k.st.SessionRequests(rctx, k.ev.SessionID)
		cancel()
		if err == nil && len(reqs) > 0 {
			r := reqs[0]
			if r.Open(k.opts.Now) {
				return hook.Answer{} // already waiting, already said
			}
			if r.Verdict != "" && r.Verdict != tally.VerdictElsewhere && k.opts.Now.Sub(r.DecidedAt) < recentDecision {
				return hook.Answer{}
			}
		}
	}
	return decide(ctx, k)
}
