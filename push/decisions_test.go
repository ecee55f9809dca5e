package push_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/token"
)

// writeToken adds a write token to the team's store: what the board's
// Allow button decides with.
func (tm *team) writeToken(t *testing.T) string {
	t.Helper()
	secret, tok, hash := token.New("lead", tally.ScopeWrite, time.Now())
	if err := tm.st.AddToken(context.Background(), tok, hash); err != nil {
		t.Fatal(err)
	}
	return secret
}

// decide posts a decision to the team server as the board does.
func (tm *team) decide(t *testing.T, secret, id, session, verdict string) int {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"session": session, "verdict": verdict})
	req, _ := http.NewRequest(http.MethodPost, tm.http.URL+"/api/requests/"+id, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// ask stores an open request on the laptop, as the hook does.
func ask(t *testing.T, st tally.RequestKeeper, id, session string) {
	t.Helper()
	now := time.Now()
	if err := st.AskRequest(context.Background(), tally.Request{ID: id, Session: session, Agent: claude.Agent, Tool: "Bash",
		Summary: "make deploy", AskedAt: now, ExpiresAt: now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
}

// waitShown waits until the team server shows the request open.
func (tm *team) waitShown(t *testing.T, session, id string, r *running) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rec, err := tm.st.Record(context.Background(), session)
		if err == nil && len(rec.Requests) > 0 && rec.Requests[0].ID == id && rec.Requests[0].Verdict == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("request %s never showed on the team server; log:\n%s", id, r.logs)
		}
	}
}

// waitDecided waits until the laptop's store holds a decision on id.
func waitDecided(t *testing.T, st tally.RequestKeeper, id string, r *running) tally.Request {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		got, err := st.Request(context.Background(), id)
		if err == nil && got.Verdict != "" {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the decision on %s never reached the laptop's store; log:\n%s", id, r.logs)
		}
	}
}

// A decision the team's server takes on a request pushed from the laptop
// reaches the laptop's store, where the hook waits, through the pusher's
// own ask; a pusher started again after the request was pushed asks for
// it too (its hook may still wait).
func TestPush_aDecisionOnTheTeamServerReachesTheLocalStore(t *testing.T) {
	tm := newTeam(t)
	lead := tm.writeToken(t)
	st := local(t)
	state := filepath.Join(t.TempDir(), "push.json")
	now := time.Now().UTC()
	commit(t, st, tally.Record{ID: "s1", Agent: claude.Agent, Project: "/home/ana/p", LastActivity: now, Signal: tally.SignalWorking})

	r := start(t, tm, st, state, nil)
	ask(t, st, "r1", "s1")
	tm.waitShown(t, "s1", "r1", r)
	if code := tm.decide(t, lead, "r1", "s1", "deny"); code != http.StatusOK {
		t.Fatalf("the team's decision: %d", code)
	}
	got := waitDecided(t, st, "r1", r)
	if got.Verdict != tally.VerdictDeny || got.By != "lead" || !strings.HasPrefix(got.From, "team server ") {
		t.Errorf("the laptop's store took %+v", got)
	}
	if n := r.p.Stats().Decisions; n != 1 {
		t.Errorf("Stats().Decisions = %d, want 1", n)
	}

	// Pushed by one run, decided while the next runs.
	ask(t, st, "r2", "s1")
	tm.waitShown(t, "s1", "r2", r)
	r.waitAcked(t, st)
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	r2 := start(t, tm, st, state, nil)
	if code := tm.decide(t, lead, "r2", "s1", "allow"); code != http.StatusOK {
		t.Fatalf("the team's decision: %d", code)
	}
	if got := waitDecided(t, st, "r2", r2); got.Verdict != tally.VerdictAllow {
		t.Errorf("the restarted pusher took %+v", got)
	}
	// Taken once: a replay is refused on the server.
	if code := tm.decide(t, lead, "r2", "s1", "deny"); code != http.StatusConflict {
		t.Errorf("a replayed decision: %d, want 409", code)
	}
}
