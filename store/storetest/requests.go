package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// A request's times are the clock's: records show requests asked within
// column.RequestsShownFor of now.
func request(id, session string, asked time.Time) tally.Request {
	return tally.Request{
		ID: id, Session: session, Agent: claude.Agent, Tool: "Bash",
		Summary: "echo x > proof.txt", Detail: "<script>alert(1)</script>", Always: true,
		AskedAt: asked, ExpiresAt: asked.Add(2 * time.Minute),
	}
}

func shownIDs(t *testing.T, s tally.Store, session string) []string {
	t.Helper()
	r, err := s.Record(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, q := range r.Requests {
		out = append(out, q.ID+":"+string(q.Verdict))
	}
	return out
}

// testRequestShown: a request asked shows on its session's record at once
// (telling Changed), round-trips whole, and stays on the record through a
// commit that knows nothing of it.
func testRequestShown(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	commit(t, s, tally.Batch{Sessions: []tally.Record{{ID: "s1", Agent: claude.Agent, LastActivity: now}}})
	mark, _ := s.ChangeMark(ctx)
	r := request("r1", "s1", now)
	if err := s.AskRequest(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.AskRequest(ctx, r); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("the same id twice: %v, want conflict", err)
	}
	got, err := s.Request(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "Request", got, r)
	if recs, _, _ := s.Changed(ctx, mark); len(recs) != 1 || len(recs[0].Requests) != 1 {
		t.Fatalf("Changed after a request: %+v; live surfaces must be told", recs)
	}
	equal(t, "shown", shownIDs(t, s, "s1"), []string{"r1:"})
	commit(t, s, tally.Batch{Sessions: []tally.Record{{ID: "s1", Agent: claude.Agent, LastActivity: now.Add(time.Second)}}})
	equal(t, "shown after a commit", shownIDs(t, s, "s1"), []string{"r1:"})
	for i := 2; i <= 5; i++ {
		q := request("r"+string(rune('0'+i)), "s1", now.Add(time.Duration(i)*time.Second))
		if err := s.AskRequest(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	equal(t, "shown, newest first", shownIDs(t, s, "s1"), []string{"r5:", "r4:", "r3:"})
	all, err := s.SessionRequests(ctx, "s1")
	if err != nil || len(all) != 5 {
		t.Errorf("SessionRequests: %d, %v; want all 5", len(all), err)
	}
	if _, err := s.Request(ctx, "nope"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("an unknown request: %v, want not found", err)
	}
	// A request asked before the session's first record makes one, that
	// waits for its user; the first record replaces it and shows it too.
	early := request("e1", "early", now)
	early.Project = "/work/p"
	if err := s.AskRequest(ctx, early); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Record(ctx, "early"); err != nil || r.Signal != tally.SignalAsking || r.Project != "/work/p" || len(r.Requests) != 1 {
		t.Errorf("a request before the first record made %+v, %v", r, err)
	}
	commit(t, s, tally.Batch{Sessions: []tally.Record{{ID: "early", Agent: claude.Agent, LastActivity: now, Title: "t"}}})
	equal(t, "a request before the first record", shownIDs(t, s, "early"), []string{"e1:"})
	// A pushed record shows what its machine sent when this store holds
	// no request of its session.
	pushed := tally.Record{ID: "p1", Agent: claude.Agent, LastActivity: now, Requests: []tally.Request{request("x1", "p1", now)}}
	push(t, s, batch("m1", "st", 0, 1, pushed))
	equal(t, "a pushed record's requests", shownIDs(t, s, "p1"), []string{"x1:"})
}

// testRequestDecided: a decision is taken once, before the request
// expires, only for its own session; closing at the agent ends what is
// open and no more.
func testRequestDecided(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	commit(t, s, tally.Batch{Sessions: []tally.Record{{ID: "s1", Agent: claude.Agent, LastActivity: now}}})
	for _, r := range []tally.Request{request("r1", "s1", now), request("r2", "s2", now)} {
		if err := s.AskRequest(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	d := tally.Decision{ID: "r1", Session: "s2", Verdict: tally.VerdictDeny, Message: "use a temp dir", By: "ana", From: "board", At: now.Add(time.Second)}
	if _, err := s.DecideRequest(ctx, d); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("a decision naming another session: %v, want invalid", err)
	}
	d.Session = "s1"
	got, err := s.DecideRequest(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if got.Verdict != tally.VerdictDeny || got.Message != "use a temp dir" || got.By != "ana" || got.From != "board" || !got.DecidedAt.Equal(d.At) {
		t.Errorf("decided: %+v", got)
	}
	d.Verdict, d.Message = tally.VerdictAllow, ""
	if _, err := s.DecideRequest(ctx, d); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("a decision replayed: %v, want conflict", err)
	}
	if r, _ := s.Request(ctx, "r1"); r.Verdict != tally.VerdictDeny {
		t.Errorf("the replay changed the decision: %+v", r)
	}
	equal(t, "the decision shown", shownIDs(t, s, "s1"), []string{"r1:deny"})
	late := tally.Decision{ID: "r2", Session: "s2", Verdict: tally.VerdictAllow, At: now.Add(2 * time.Minute)}
	if _, err := s.DecideRequest(ctx, late); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("a decision past the expiry: %v, want conflict", err)
	}
	if _, err := s.DecideRequest(ctx, tally.Decision{ID: "zz", Session: "s1", Verdict: tally.VerdictAllow, At: now}); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("an unknown request: %v, want not found", err)
	}
	// Answered at the agent: the open one closes, the decided one stays.
	if err := s.AskRequest(ctx, request("r3", "s1", now.Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	n, err := s.CloseRequests(ctx, "s1", now.Add(3*time.Second))
	if err != nil || n != 1 {
		t.Fatalf("CloseRequests = %d, %v; want the one open", n, err)
	}
	equal(t, "closed", shownIDs(t, s, "s1"), []string{"r3:elsewhere", "r1:deny"})
	if _, err := s.DecideRequest(ctx, tally.Decision{ID: "r3", Session: "s1", Verdict: tally.VerdictAllow, At: now.Add(4 * time.Second)}); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("a decision on a request answered at the agent: %v, want conflict", err)
	}
	if n, err := s.CloseRequests(ctx, "s1", now.Add(5*time.Second)); n != 0 || err != nil {
		t.Errorf("closing again: %d, %v", n, err)
	}
}

// testRequestPushedDecided: a team server that takes a pushed request to
// decide it (as web does, to relay the decision to the machine) shows the
// decision on the pushed record, beside the machine's other requests; the
// machine's next push still shows what it sent (a newer request, open),
// with the decision over the one decided here.
func testRequestPushedDecided(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	old, asked := request("x1", "p1", now), request("x2", "p1", now.Add(time.Second))
	old.Verdict, old.By = tally.VerdictAllow, "ana"
	pushed := tally.Record{ID: "p1", Agent: claude.Agent, LastActivity: now, Requests: []tally.Request{asked, old}}
	b := batch("m1", "st", 0, 1, pushed)
	b.Relays = true
	push(t, s, b)
	if r, err := s.Record(ctx, "p1"); err != nil || !r.Relayed {
		t.Errorf("a record pushed by a pusher that takes decisions home: relayed %v, %v", r.Relayed, err)
	}
	if err := s.AskRequest(ctx, asked); err != nil {
		t.Fatal(err)
	}
	equal(t, "taken, still open", shownIDs(t, s, "p1"), []string{"x2:", "x1:allow"})
	if _, err := s.DecideRequest(ctx, tally.Decision{ID: "x2", Session: "p1", Verdict: tally.VerdictDeny, By: "lead", At: now.Add(2 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	equal(t, "decided here", shownIDs(t, s, "p1"), []string{"x2:deny", "x1:allow"})
	r, err := s.Record(ctx, "p1")
	if err != nil || r.Machine != "m1" {
		t.Errorf("the pushed record after a decision here: machine %q, %v", r.Machine, err)
	}
	// The machine asks again before it has the decision: its push shows
	// x2 open still, and the new x3.
	next := request("x3", "p1", now.Add(3*time.Second))
	pushed.Requests = []tally.Request{next, asked, old}
	pushed.LastActivity = now.Add(3 * time.Second)
	push(t, s, batch("m1", "st", 1, 2, pushed))
	equal(t, "the machine's next push", shownIDs(t, s, "p1"), []string{"x3:", "x2:deny", "x1:allow"})
}
