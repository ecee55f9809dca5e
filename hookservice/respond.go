package hookservice

import (
	"context"
	"encoding/json"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
)

// responder answers one call whose session, lists and fold are gathered.
type responder func(ctx context.Context, k *call) hook.Answer

// respond is the responder of an event: the rules, for every event but a
// permission request, whose answer comes from elsewhere (a decision the
// board, the terminal or a phone takes: ask, in ask.go, called before the
// transcript is read). A call that shows the session moving on closes its
// open requests first; the agent's own permission notification does not
// tell the user again what a request told.
func (s *Service) respond(ev hook.Event) responder {
	switch ev.Name {
	case hook.PostToolUse, hook.Stop, hook.UserPromptSubmit:
		return closing
	case hook.Notification:
		return notified
	}
	return decide
}

// savedHook is what the store keeps for a session's hooks: the rules'
// memory, and how many turns the transcript's fold had counted
// (tally.FileState.Turns) at the last call; nil at a first call, or
// after a call that read no transcript.
type savedHook struct {
	State hook.State `json:"state"`
	Turns *int64     `json:"turns,omitempty"`
	// Told are the list events of the calls PostToolUse reported that
	// the transcript did not hold yet (withTold).
	Told []tally.Event `json:"told,omitempty"`
}

// decide runs the rules inside the store's hook transaction, so the hook
// processes of a session see each other's memory. Without the store, it
// decides with no memory, which blocks and reminds of nothing.
func decide(ctx context.Context, k *call) hook.Answer {
	var ans hook.Answer
	decided := false
	if k.st != nil {
		lctx, cancel := context.WithTimeout(ctx, LockWait)
		defer cancel()
		err := k.st.UpdateHook(lctx, k.ev.SessionID, k.opts.Now, func(raw []byte) ([]byte, tally.Signal, error) {
			var saved savedHook
			if len(raw) > 0 {
				if err := json.Unmarshal(raw, &saved); err != nil {
					k.log.printf("the saved hook state is damaged (%v); starting afresh", err)
					saved = savedHook{}
				}
			}
			s := k.sess
			s, saved.Told = withTold(s, k.fold.state.Lists[""], append(saved.Told, k.told...))
			s.NewTurns, saved.Turns = newTurns(saved.Turns, k.fold)
			var next hook.State
			ans, next = hook.Decide(k.ev, s, saved.State, k.opts)
			saved.State = next
			js, err := json.Marshal(saved)
			decided = true
			return js, signalOf(ans), err
		})
		if err != nil {
			k.log.printf("the hooks' memory is out of reach (%v): answering without it", err)
			decided = false
		}
	}
	if !decided {
		s, _ := withTold(k.sess, k.fold.state.Lists[""], k.told)
		ans, _ = hook.Decide(k.ev, s, hook.State{Unavailable: true}, k.opts)
	}
	return ans
}

// signalOf is what an answer tells the store about the session.
func signalOf(a hook.Answer) tally.Signal {
	switch {
	case a.NeedsInput:
		return tally.SignalAsking
	case a.Active:
		return tally.SignalWorking
	}
	return tally.SignalNone
}

// newTurns are the model's turns since the last call counted them, with
// what to remember: the fold's count. A first call counts nothing, and so
// does a call whose fold counts fewer than remembered (the transcript was
// replaced, or another call read further): counting starts again from it.
func newTurns(seen *int64, f foldResult) (int, *int64) {
	if f.fold == nil {
		return 0, nil
	}
	now := f.state.Turns
	if seen == nil || *seen > now {
		return 0, &now
	}
	return int(now - *seen), &now
}
