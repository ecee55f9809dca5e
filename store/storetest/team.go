package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/tasks"
	"github.com/tallyhq/tally/token"
)

// RunTeam checks what a team's server needs of its store: the hooks'
// memory, tokens, pushed batches, changes read a page at a time.
func RunTeam(t *testing.T, open Opener) {
	t.Run("hook state round-trips, nil keeps it, an error writes nothing", func(t *testing.T) { testHookState(t, open) })
	t.Run("needs input holds until newer activity, committed or pushed", func(t *testing.T) { testNeedsInput(t, open) })
	t.Run("tokens: kept hashed, found by id, revoked by id or name", func(t *testing.T) { testTokens(t, open) })
	t.Run("tokens: a push token keeps the origin it pushes for", func(t *testing.T) { testTokenOrigin(t, open) })
	t.Run("a batch pushed twice is applied once", func(t *testing.T) { testPushRepeat(t, open) })
	t.Run("a batch past the stream's mark asks for a resend", func(t *testing.T) { testPushGap(t, open) })
	t.Run("pushed records carry their origin and are filtered by it", func(t *testing.T) { testPushOrigin(t, open) })
	t.Run("a push never replaces a session of another origin", func(t *testing.T) { testPushOtherOrigin(t, open) })
	t.Run("a request shows on its session's record at once, and after a commit", func(t *testing.T) { testRequestShown(t, open) })
	t.Run("a decision is taken once, unexpired, for its own session", func(t *testing.T) { testRequestDecided(t, open) })
	t.Run("a pushed record keeps its machine's requests, with this store's decisions over them", func(t *testing.T) { testRequestPushedDecided(t, open) })
}

// RunTeamShared checks what several processes sharing a team's database
// rely on: the hook processes of one session take turns.
func RunTeamShared(t *testing.T, db Database) {
	t.Run("hook calls through several processes lose no update", func(t *testing.T) { testSharedHooks(t, db) })
}

func openTeam(t *testing.T, open Opener) store.Store {
	t.Helper()
	return openFull(t, open)
}

func hookCall(t *testing.T, s tally.HookKeeper, session string, at time.Time, state []byte, sig tally.Signal) {
	t.Helper()
	err := s.UpdateHook(context.Background(), session, at, func([]byte) ([]byte, tally.Signal, error) { return state, sig, nil })
	if err != nil {
		t.Fatalf("UpdateHook(%s): %v", session, err)
	}
}

func savedHook(t *testing.T, s tally.HookKeeper, session string) []byte {
	t.Helper()
	var got []byte
	err := s.UpdateHook(context.Background(), session, t0, func(saved []byte) ([]byte, tally.Signal, error) {
		got = append([]byte(nil), saved...)
		return nil, tally.SignalNone, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func testHookState(t *testing.T, open Opener) {
	s := openTeam(t, open)
	if got := savedHook(t, s, "s1"); got != nil {
		t.Fatalf("a session never seen has state %q", got)
	}
	state := []byte{'{', 0, 0xff, '}'} // bytes, not text: kept as they are
	hookCall(t, s, "s1", t0, state, tally.SignalNone)
	hookCall(t, s, "s1", t0, nil, tally.SignalNone)
	if got := savedHook(t, s, "s1"); !bytes.Equal(got, state) {
		t.Fatalf("saved state %q, want %q (nil must keep it)", got, state)
	}
	boom := errors.New("boom")
	err := s.UpdateHook(context.Background(), "s1", t0, func([]byte) ([]byte, tally.Signal, error) {
		return []byte("lost"), tally.SignalAsking, boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("UpdateHook whose fn failed: %v, want fn's error", err)
	}
	if got := savedHook(t, s, "s1"); !bytes.Equal(got, state) {
		t.Errorf("a failed call saved %q", got)
	}
	if err := s.UpdateHook(context.Background(), "", t0, func([]byte) ([]byte, tally.Signal, error) { return nil, 0, nil }); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("UpdateHook without a session: %v, want invalid", err)
	}
}

func activityOf(t *testing.T, s tally.Store, id string, now time.Time) tally.Activity {
	t.Helper()
	r, err := s.Record(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tally.DeriveActivity(r.Signal, r.LastActivity, now)
}

// testNeedsInput: a hook's mark shows at once (and tells Changed), holds
// over a commit or a push of what was written before it, and ends with
// the first record of newer activity, or with a working hook call.
func testNeedsInput(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	now := at(3)
	working := func(id string, last time.Time) tally.Record {
		return tally.Record{ID: id, Agent: claude.Agent, LastActivity: last, Signal: tally.SignalWorking}
	}
	commit(t, s, tally.Batch{Sessions: []tally.Record{working("local", at(0))}})
	push(t, s, batch("m1", "st", 0, 1, working("pushed", at(0))))
	mark, _ := s.ChangeMark(ctx)

	for _, id := range []string{"local", "pushed"} {
		hookCall(t, s, id, at(1), nil, tally.SignalAsking)
		if a := activityOf(t, s, id, now); a != tally.ActivityNeedsInput {
			t.Fatalf("%s after the permission prompt: %v, want needs_input", id, a)
		}
	}
	if recs, _, _ := s.Changed(ctx, mark); len(recs) != 2 {
		t.Errorf("Changed after two marks: %d records; live surfaces must be told", len(recs))
	}
	// Lines written before the prompt, folded late, or pushed late.
	commit(t, s, tally.Batch{Sessions: []tally.Record{working("local", at(0).Add(30*time.Second))}})
	push(t, s, batch("m1", "st", 1, 2, working("pushed", at(0).Add(30*time.Second))))
	for _, id := range []string{"local", "pushed"} {
		if a := activityOf(t, s, id, now); a != tally.ActivityNeedsInput {
			t.Errorf("%s after a record of older activity: %v, want needs_input", id, a)
		}
	}
	if r, _ := s.Record(ctx, "pushed"); r.Machine != "m1" {
		t.Errorf("the mark lost the pushed record's origin: %+v", r)
	}
	// The answer's lines.
	commit(t, s, tally.Batch{Sessions: []tally.Record{working("local", at(2))}})
	push(t, s, batch("m1", "st", 2, 3, working("pushed", at(2))))
	for _, id := range []string{"local", "pushed"} {
		if a := activityOf(t, s, id, now); a != tally.ActivityWorking {
			t.Errorf("%s after newer activity: %v, want working", id, a)
		}
		// The mark is gone, not merely outvoted: older lines now say working.
	}
	commit(t, s, tally.Batch{Sessions: []tally.Record{working("local", at(2))}})
	if a := activityOf(t, s, "local", now); a != tally.ActivityWorking {
		t.Errorf("a mark came back: %v", a)
	}
	// A working hook call ends a mark at once.
	hookCall(t, s, "local", at(3), nil, tally.SignalAsking)
	hookCall(t, s, "local", at(3).Add(time.Second), nil, tally.SignalWorking)
	if a := activityOf(t, s, "local", at(3).Add(2*time.Second)); a != tally.ActivityWorking {
		t.Errorf("after a working hook call: %v, want working", a)
	}
	// A mark for a session with no record yet waits for its first record.
	hookCall(t, s, "early", at(1), nil, tally.SignalAsking)
	commit(t, s, tally.Batch{Sessions: []tally.Record{working("early", at(0))}})
	if a := activityOf(t, s, "early", now); a != tally.ActivityNeedsInput {
		t.Errorf("a session marked before its first record: %v, want needs_input", a)
	}
}

func testTokens(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	secretA, a, hashA := token.New("ana-laptop", tally.ScopePush, t0)
	a.Machine = "ana-laptop"
	_, b, hashB := token.New("board", tally.ScopeRead, t0.Add(time.Second))
	_, c, hashC := token.New("board", tally.ScopeWrite, t0.Add(2*time.Second))
	for i, tk := range []tally.Token{a, b, c} {
		if err := s.AddToken(ctx, tk, [][]byte{hashA, hashB, hashC}[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddToken(ctx, a, hashA); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("the same id twice: %v, want conflict", err)
	}
	list, err := s.Tokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "Tokens", list, []tally.Token{a, b, c})
	got, err := token.Check(ctx, s, secretA)
	if err != nil || got != a {
		t.Fatalf("Check(the secret issued) = %+v, %v", got, err)
	}
	if _, err := s.RevokeToken(ctx, "board"); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("revoking a name two tokens share: %v, want conflict", err)
	}
	if gone, err := s.RevokeToken(ctx, b.ID); err != nil || gone != b {
		t.Errorf("revoke by id: %+v, %v", gone, err)
	}
	if gone, err := s.RevokeToken(ctx, "ana-laptop"); err != nil || gone != a {
		t.Errorf("revoke by name: %+v, %v", gone, err)
	}
	if _, err := token.Check(ctx, s, secretA); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("a revoked token still passes: %v", err)
	}
	if _, err := s.RevokeToken(ctx, "nobody"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("revoking what is not there: %v, want not found", err)
	}
	if list, _ := s.Tokens(ctx); len(list) != 1 || list[0] != c {
		t.Errorf("left after revoking: %+v", list)
	}
}

// testTokenOrigin: a push token is stored with the machine and user it
// pushes for, and every way of reading it back gives them; a push token
// naming no machine, or another token naming one, is refused.
func testTokenOrigin(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	secret, bound, hash := token.New("bo's desk", tally.ScopePush, t0)
	bound.Machine, bound.User = "bo-desk", "bo"
	if err := s.AddToken(ctx, bound, hash); err != nil {
		t.Fatal(err)
	}
	got, err := token.Check(ctx, s, secret)
	if err != nil || got != bound {
		t.Fatalf("Check = %+v, %v; want %+v", got, err, bound)
	}
	if list, err := s.Tokens(ctx); err != nil || len(list) != 1 || list[0] != bound {
		t.Fatalf("Tokens = %+v, %v", list, err)
	}
	if gone, err := s.RevokeToken(ctx, bound.Name); err != nil || gone != bound {
		t.Fatalf("RevokeToken = %+v, %v", gone, err)
	}
	_, unbound, h1 := token.New("anyone", tally.ScopePush, t0)
	if err := s.AddToken(ctx, unbound, h1); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("a push token naming no machine: %v, want invalid", err)
	}
	_, reader, h2 := token.New("board", tally.ScopeRead, t0)
	reader.Machine = "ana-laptop"
	if err := s.AddToken(ctx, reader, h2); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Errorf("a read token naming a machine: %v, want invalid", err)
	}
}

func batch(machine, stream string, from, to int64, recs ...tally.Record) tally.PushBatch {
	return tally.PushBatch{Machine: machine, User: "u-" + machine, Stream: stream, From: from, To: to, Sessions: recs}
}

func push(t *testing.T, s tally.Ingester, b tally.PushBatch) tally.PushAck {
	t.Helper()
	ack, err := s.Ingest(context.Background(), b)
	if err != nil {
		t.Fatalf("Ingest(%s %d..%d): %v", b.Stream, b.From, b.To, err)
	}
	return ack
}

func testPushRepeat(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	first := batch("m1", "st", 0, 2, fullRecord("a", claude.Agent, "/p", at(1)), fullRecord("b", codex.Agent, "/p", at(2)))
	if ack := push(t, s, first); ack.Acked != 2 || ack.Applied != 2 || ack.Repeat || ack.Resend {
		t.Fatalf("first batch: %+v", ack)
	}
	mark, _ := s.ChangeMark(ctx)
	// The answer was lost; the pusher sends the batch again.
	if ack := push(t, s, first); ack.Acked != 2 || ack.Applied != 0 || !ack.Repeat {
		t.Fatalf("the same batch again: %+v, want a repeat", ack)
	}
	if recs, _, _ := s.Changed(ctx, mark); len(recs) != 0 {
		t.Errorf("a repeat wrote %d records", len(recs))
	}
	newer := fullRecord("a", claude.Agent, "/p", at(5))
	newer.Title = "newer"
	push(t, s, batch("m1", "st", 2, 3, newer))
	// An old batch delayed in the network arrives after a newer one.
	if ack := push(t, s, first); !ack.Repeat || ack.Acked != 3 {
		t.Fatalf("an old batch after a newer one: %+v, want a repeat at 3", ack)
	}
	if r, _ := s.Record(ctx, "a"); r.Title != "newer" {
		t.Errorf("an old batch replaced a newer record: title %q", r.Title)
	}
	if got := ids(sessions(t, s, tally.SessionFilter{})); len(got) != 2 {
		t.Errorf("sessions %v, want a and b once", got)
	}
}

func testPushGap(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	// The store never saw this stream (a restored database): from 0 again.
	if ack := push(t, s, batch("m1", "st", 5, 9, fullRecord("a", claude.Agent, "/p", at(1)))); !ack.Resend || ack.Acked != 0 {
		t.Fatalf("a stream never seen, from 5: %+v, want a resend from 0", ack)
	}
	if _, err := s.Record(ctx, "a"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("a batch asked to be resent was written: %v", err)
	}
	push(t, s, batch("m1", "st", 0, 4, fullRecord("a", claude.Agent, "/p", at(1))))
	if ack := push(t, s, batch("m1", "st", 6, 9)); !ack.Resend || ack.Acked != 4 {
		t.Fatalf("a gap from 4 to 6: %+v, want a resend from 4", ack)
	}
	// Overlap is fine: records are whole, so applying some again is harmless.
	if ack := push(t, s, batch("m1", "st", 3, 9, fullRecord("b", claude.Agent, "/p", at(2)))); ack.Acked != 9 || ack.Applied != 1 {
		t.Fatalf("a batch overlapping the mark: %+v", ack)
	}
	// Another stream of the same machine (its local store was replaced)
	// has marks of its own.
	if ack := push(t, s, batch("m1", "st2", 0, 1, fullRecord("c", claude.Agent, "/p", at(3)))); ack.Acked != 1 || ack.Applied != 1 {
		t.Fatalf("a new stream: %+v", ack)
	}
	for _, bad := range []tally.PushBatch{
		batch("", "st", 0, 1), batch("m1", "", 0, 1), batch("m1", "st", 2, 1), batch("m1", "st", -1, 1),
		batch("m1", "st", 9, 10, tally.Record{Agent: claude.Agent}),
	} {
		if _, err := s.Ingest(ctx, bad); tally.ErrorCode(err) != tally.CodeInvalid {
			t.Errorf("Ingest(%+v): %v, want invalid", bad, err)
		}
	}
}

func testPushOrigin(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	commit(t, s, tally.Batch{Sessions: []tally.Record{fullRecord("server-own", claude.Agent, "/srv", at(1))}})
	ana := fullRecord("ana-1", claude.Agent, "/home/ana/api", at(2))
	ana.Machine, ana.User = "spoofed", "spoofed" // the batch says where it came from, not the record
	push(t, s, batch("ana-laptop", "s", 0, 1, ana, fullRecord("ana-2", codex.Agent, "/home/ana/web", at(3))))
	push(t, s, tally.PushBatch{Machine: "build-box", User: "ana", Stream: "s", To: 1,
		Sessions: []tally.Record{fullRecord("ci-1", claude.Agent, "/ci", at(4))}})
	push(t, s, batch("bo-desk", "s", 0, 1, fullRecord("bo-1", claude.Agent, "/home/bo/api", at(5))))

	r, err := s.Record(ctx, "ana-1")
	if err != nil || r.Machine != "ana-laptop" || r.User != "u-ana-laptop" {
		t.Fatalf("pushed record: machine %q user %q, %v", r.Machine, r.User, err)
	}
	if got := r.Session(at(6)); got.Machine != "ana-laptop" || got.User != "u-ana-laptop" {
		t.Errorf("the session's JSON form lost the origin: %q %q", got.Machine, got.User)
	}
	if r, _ := s.Record(ctx, "server-own"); r.Machine != "" || r.User != "" {
		t.Errorf("a record the store's own indexer wrote has an origin: %q %q", r.Machine, r.User)
	}
	for _, tc := range []struct {
		name string
		f    tally.SessionFilter
		want []string
	}{
		{"machine", tally.SessionFilter{Machine: "ana-laptop"}, []string{"ana-2", "ana-1"}},
		{"user", tally.SessionFilter{User: "ana"}, []string{"ci-1"}},
		{"machine and agent", tally.SessionFilter{Machine: "ana-laptop", Agent: claude.Agent}, []string{"ana-1"}},
		{"machine and project", tally.SessionFilter{Machine: "bo-desk", Project: "api"}, []string{"bo-1"}},
		{"machine, limit", tally.SessionFilter{Machine: "ana-laptop", Limit: 1}, []string{"ana-2"}},
		{"machine and since", tally.SessionFilter{Machine: "ana-laptop", Since: at(3)}, []string{"ana-2"}},
		{"a machine never seen", tally.SessionFilter{Machine: "nobody"}, []string{}},
		{"no filter: every origin", tally.SessionFilter{}, []string{"bo-1", "ci-1", "ana-2", "ana-1", "server-own"}},
	} {
		got := ids(sessions(t, s, tc.f))
		equal(t, tc.name, got, tc.want)
	}
}

func testPushOtherOrigin(t *testing.T, open Opener) {
	s := openTeam(t, open)
	ctx := context.Background()
	if _, err := s.UpdateTaskList(ctx, "team", func(l *tasks.List) error { return createTask(l, "shared work") }); err != nil {
		t.Fatal(err)
	}
	push(t, s, batch("m1", "s", 0, 1, fullRecord("dup", claude.Agent, "/p", at(1))))
	fake := tally.Record{ID: "tally:team", Agent: tally.AgentTally, LastActivity: at(9)}
	ack := push(t, s, batch("m2", "s", 0, 1, fullRecord("dup", claude.Agent, "/q", at(2)), fake, fullRecord("ok", claude.Agent, "/q", at(3))))
	if ack.Applied != 1 || ack.Acked != 1 {
		t.Errorf("ack %+v, want 1 applied", ack)
	}
	equal(t, "refused", sortedKeys(setOf(ack.Refused)), []string{"dup", "tally:team"})
	if r, _ := s.Record(ctx, "dup"); r.Machine != "m1" || r.Project != "/p" {
		t.Errorf("another machine's push replaced m1's session: %+v", r.Machine)
	}
	if l, _ := s.TaskList(ctx, "team"); len(l.Tasks) != 1 {
		t.Errorf("the team's list after a push of its id: %+v", l)
	}
	if r, _ := s.Record(ctx, "tally:team"); r.Agent != tally.AgentTally || r.Machine != "" {
		t.Errorf("a push replaced the team's list's session: %+v", r)
	}
}

func setOf(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// testSharedHooks: the hook processes of one session, on two handles, each
// add one to a counter in the session's state: every call's update lands.
func testSharedHooks(t *testing.T, db Database) {
	const handles, calls = 2, 20
	open := db(t)
	var stores []store.Store
	for range handles {
		stores = append(stores, openTeam(t, open))
	}
	var wg sync.WaitGroup
	for _, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				err := s.UpdateHook(context.Background(), "count", t0, func(saved []byte) ([]byte, tally.Signal, error) {
					n, _ := strconv.Atoi(string(saved))
					return []byte(strconv.Itoa(n + 1)), tally.SignalNone, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := string(savedHook(t, stores[0], "count")); got != fmt.Sprint(handles*calls) {
		t.Errorf("count %s, want %d: hook calls lost updates", got, handles*calls)
	}
}
