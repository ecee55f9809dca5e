package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/web"
)

func relayRig(t *testing.T) *rig {
	return newRig(t, func(o *web.Options) {
		o.RequireToken = true
		o.Tokens = o.Store.(tally.TokenKeeper)
		o.Ingest = o.Store.(tally.Ingester)
		o.Requests = o.Store.(tally.RequestKeeper)
	})
}

// A request pushed from Ana's laptop is decided on the team's server: by a
// write token only, once, for its own session, only while the pushed
// record shows it open, and only when the machine's tally push takes
// decisions home. Ana's push token then learns the decision (GET
// /api/push/decisions), Bo's, naming the same id, learns nothing, and a
// read or write token may not ask. A long ask is answered as soon as the
// decision is taken.
func TestRelay_aPushedRequestIsDecidedHereAndLearnedOnlyByItsMachine(t *testing.T) {
	r := relayRig(t)
	ana, bo := r.issueFor(tally.ScopePush, "ana-laptop", "ana"), r.issueFor(tally.ScopePush, "bo-desk", "")
	read, write := r.issue(tally.ScopeRead), r.issue(tally.ScopeWrite)
	bearer := func(tok string) []string { return []string{"Authorization", "Bearer " + tok} }
	now := r.clock.Now()
	rec := r.record(tasksID)
	rec.ID = "ana-session"
	open := tally.Request{ID: "r-open", Session: rec.ID, Tool: "Bash", Summary: "make deploy", AskedAt: now, ExpiresAt: now.Add(time.Minute)}
	gone := tally.Request{ID: "r-gone", Session: rec.ID, Tool: "Bash", AskedAt: now.Add(-time.Hour), ExpiresAt: now.Add(-time.Minute)}
	forged := tally.Request{ID: "r-forged", Session: "other-session", Tool: "Bash", AskedAt: now, ExpiresAt: now.Add(time.Minute)}
	rec.Requests = []tally.Request{open, gone, forged}
	js, _ := json.Marshal(tally.PushBatch{Machine: "ana-laptop", User: "ana", Stream: "a", To: 1, Relays: true, Sessions: []tally.Record{rec}})
	if resp, out := r.send("POST", "/api/push", js, bearer(ana)...); resp.StatusCode != 200 {
		t.Fatalf("Ana's push: %d %s", resp.StatusCode, out)
	}
	// Bo's tally push does not take decisions home (an older one): his
	// request is answered on his desk, never taken here.
	boRec := rec
	boRec.ID = "bo-session"
	boRec.Requests = []tally.Request{{ID: "r-bo", Session: boRec.ID, Tool: "Bash", AskedAt: now, ExpiresAt: now.Add(time.Minute)}}
	js, _ = json.Marshal(tally.PushBatch{Machine: "bo-desk", User: "bo", Stream: "b", To: 1, Sessions: []tally.Record{boRec}})
	if resp, out := r.send("POST", "/api/push", js, bearer(bo)...); resp.StatusCode != 200 {
		t.Fatalf("Bo's push: %d %s", resp.StatusCode, out)
	}
	decide := func(tok, id, session, verdict string) (int, string) {
		body, _ := json.Marshal(map[string]string{"session": session, "verdict": verdict})
		resp, out := r.send("POST", "/api/requests/"+id, body, bearer(tok)...)
		return resp.StatusCode, string(out)
	}
	for _, tc := range []struct {
		name, tok, id, session string
		want                   int
	}{
		{"a read token", read, "r-open", rec.ID, 403},
		{"Ana's push token", ana, "r-open", rec.ID, 403},
		{"another session", write, "r-open", "other-session", 404},
		{"an expired request", write, "r-gone", rec.ID, 404},
		{"a pushed request naming another session", write, "r-forged", "other-session", 404},
		{"a request of a machine whose push does not take decisions home", write, "r-bo", "bo-session", 409},
	} {
		if code, out := decide(tc.tok, tc.id, tc.session, "allow"); code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, code, out, tc.want)
		}
	}

	// Ana's pusher waits for a decision; the write token takes one.
	type answer struct {
		code    int
		body    string
		elapsed time.Duration
	}
	waited := make(chan answer, 1)
	go func() {
		start := time.Now()
		resp, out := r.send("GET", "/api/push/decisions?wait=20&id=r-open", nil, bearer(ana)...)
		waited <- answer{resp.StatusCode, string(out), time.Since(start)}
	}()
	time.Sleep(100 * time.Millisecond)
	clicked := time.Now()
	if code, out := decide(write, "r-open", rec.ID, "deny"); code != 200 {
		t.Fatalf("the write token's decision: %d %s", code, out)
	}
	got := <-waited
	if got.code != 200 || !strings.Contains(got.body, `"id":"r-open"`) || !strings.Contains(got.body, `"verdict":"deny"`) {
		t.Fatalf("Ana's ask: %d %s", got.code, got.body)
	}
	if late := time.Since(clicked); late > 500*time.Millisecond {
		t.Errorf("Ana's ask was answered %v after the decision", late)
	}
	if code, out := decide(write, "r-open", rec.ID, "allow"); code != http.StatusConflict {
		t.Errorf("a replay: %d %s, want 409", code, out)
	}
	if rec := r.record(rec.ID); len(rec.Requests) != 3 || rec.Requests[0].Verdict != tally.VerdictDeny || rec.Machine != "ana-laptop" {
		t.Errorf("the pushed record after the decision: %+v", rec.Requests)
	}
	for _, tc := range []struct {
		name, tok string
		code      int
		learns    bool
	}{
		{"Ana's push token", ana, 200, true},
		{"Bo's push token", bo, 200, false},
		{"a read token", read, 403, false},
		{"a write token", write, 403, false},
	} {
		resp, out := r.send("GET", "/api/push/decisions?wait=0&id=r-open&id=r-gone", nil, bearer(tc.tok)...)
		if resp.StatusCode != tc.code || strings.Contains(string(out), "r-open") != tc.learns {
			t.Errorf("%s asks: %d %s", tc.name, resp.StatusCode, out)
		}
	}
}
