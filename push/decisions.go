package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/tallyhq/tally"
)

// The team server decides for this machine's agents without connecting to
// it: while the local store holds an open request that a push showed the
// server, the pusher asks the server for the decisions on it (GET
// /api/push/decisions, a long poll) and takes each into the local store,
// where the hook that asked waits for it.

// DefaultDecisionWait is how long one ask for decisions waits at the
// server (it bounds it at 25 s too).
const DefaultDecisionWait = 25 * time.Second

// maxDecisionsAnswer bounds the server's answer to an ask.
const maxDecisionsAnswer = 1 << 20

// askedWithin is how far back a pusher starting looks for requests still
// open that an earlier run showed the server: a hook waits at most
// hook.MaxApprovalWait (under 10 minutes).
const askedWithin = 10 * time.Minute

// maxDecider bounds the who and where of a relayed decision, as stored.
const maxDecider = 200

// openRequest is a request of this machine's store the server has been
// shown open.
type openRequest struct {
	session string
	expires time.Time
}

// waiting is the set of open requests the pusher asks decisions for.
type waiting struct {
	mu   sync.Mutex
	reqs map[string]openRequest
	// kick wakes the relay when the set gains a request.
	kick chan struct{}
}

// note takes what pushed records show of their requests: open ones are
// asked about, the others no longer.
func (w *waiting) note(recs []tally.Record, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	added := false
	for i := range recs {
		for _, r := range recs[i].Requests {
			if r.Open(now) {
				if _, ok := w.reqs[r.ID]; !ok {
					w.reqs[r.ID] = openRequest{session: r.Session, expires: r.ExpiresAt}
					added = true
				}
			} else {
				delete(w.reqs, r.ID)
			}
		}
	}
	if added {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
}

// open are the ids still open at now, the expired ones dropped.
func (w *waiting) open(now time.Time) map[string]openRequest {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]openRequest, len(w.reqs))
	for id, r := range w.reqs {
		if !now.Before(r.expires) {
			delete(w.reqs, id)
			continue
		}
		out[id] = r
	}
	return out
}

func (w *waiting) drop(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.reqs, id)
}

// relay asks for decisions while there are open requests, until ctx ends.
// Only a store that keeps requests has any to ask about. It starts with
// those an earlier run showed the server, whose hooks may still wait.
func (p *Pusher) relay(ctx context.Context, keeper tally.RequestKeeper) {
	if recs, err := p.o.Store.Records(ctx, tally.SessionFilter{Since: time.Now().Add(-askedWithin)}); err == nil {
		p.waiting.note(recs, time.Now())
	}
	fails := 0
	for ctx.Err() == nil {
		open := p.waiting.open(time.Now())
		if len(open) == 0 {
			select {
			case <-ctx.Done():
				return
			case <-p.waiting.kick:
			}
			continue
		}
		// A request shown the server meanwhile starts a new ask naming it.
		askCtx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-p.waiting.kick:
				cancel()
			case <-askCtx.Done():
			}
		}()
		got, err := p.askDecisions(askCtx, open)
		kicked := askCtx.Err() != nil && ctx.Err() == nil
		cancel()
		if kicked {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if fails == 0 {
				p.o.Log(fmt.Sprintf("asking %s for decisions: %v", p.name, err))
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(p.backoff(fails)):
			}
			fails++
			continue
		}
		fails = 0
		for _, r := range got {
			p.take(ctx, keeper, open, r)
		}
	}
}

// take applies a decision the server relayed to the local store, as the
// request it asked about: the hook waiting for it answers within its poll.
// A request decided meanwhile here (at the terminal, the local board) or
// expired keeps what it has: the store takes one decision.
func (p *Pusher) take(ctx context.Context, keeper tally.RequestKeeper, open map[string]openRequest, r tally.Request) {
	o, ok := open[r.ID]
	if !ok {
		return // not asked about: nothing the server may decide
	}
	by, from := r.By, "team server "+p.name
	if r.From != "" {
		from += " (" + r.From + ")"
	}
	d := tally.Decision{ID: r.ID, Session: o.session, Verdict: r.Verdict, Message: r.Message,
		By: clip(by), From: clip(from), At: time.Now()}
	_, err := keeper.DecideRequest(ctx, d)
	switch {
	case err == nil:
		p.stats.decisions.Add(1)
		p.o.Log(fmt.Sprintf("request %s of session %s: %s by %s, taken from %s", r.ID, o.session, r.Verdict, d.By, p.name))
	case tally.ErrorCode(err) == tally.CodeUnavailable:
		return // the local store is busy: the next ask brings it again
	default:
		p.o.Log(fmt.Sprintf("request %s of session %s: the decision from %s is not taken: %s", r.ID, o.session, p.name, tally.UserMessage(err)))
	}
	p.waiting.drop(r.ID)
}

func clip(s string) string {
	if len(s) > maxDecider {
		return s[:maxDecider]
	}
	return s
}

// askDecisions is one GET /api/push/decisions naming the open requests.
func (p *Pusher) askDecisions(ctx context.Context, open map[string]openRequest) ([]tally.Request, error) {
	q := url.Values{}
	for id := range open {
		q.Add("id", id)
	}
	q.Set("wait", strconv.Itoa(int(p.o.DecisionWait/time.Second)))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.decisionsURL+"?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+p.o.Token)
	if p.o.UserAgent != "" {
		req.Header.Set("User-Agent", p.o.UserAgent)
	}
	resp, err := p.o.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("the server %s is unreachable: %w", p.name, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDecisionsAnswer))
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("it does not decide for pushed sessions (%s): answer them on this machine", resp.Status)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s: %s", resp.Status, serverMessage(data))
	case err != nil:
		return nil, fmt.Errorf("the server's answer was cut: %w", err)
	}
	var ans struct {
		Decisions []tally.Request `json:"decisions"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, fmt.Errorf("the server's answer is not decisions: %v", err)
	}
	return ans.Decisions, nil
}
