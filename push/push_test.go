package push_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/push"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/token"
	"github.com/tallyhq/tally/web"
)

// team is a real tally serve handler on a SQLite store, behind a wrapper
// the tests use to lose answers or refuse batches.
type team struct {
	st    *sqlite.Store
	srv   *web.Server
	http  *httptest.Server
	token string
	// lose, when it returns true for a request, applies it and then cuts
	// the connection before the answer: the pusher cannot know it landed.
	lose func(n int64) bool
	// refuse answers 413 for a body whose JSON holds this string.
	refuse string
	n      atomic.Int64
}

func newTeam(t *testing.T) *team {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "team.db"))
	if err != nil {
		t.Fatal(err)
	}
	secret, tok, hash := token.New("laptop", tally.ScopePush, time.Now())
	tok.Machine = "ana-laptop"
	if err := st.AddToken(context.Background(), tok, hash); err != nil {
		t.Fatal(err)
	}
	tm := &team{st: st, token: secret}
	tm.srv = web.New(web.Options{Indexer: broker.New[index.Change](), Store: st, RequireToken: true, Tokens: st, Ingest: st, Requests: st})
	h := tm.srv.Handler()
	tm.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := tm.n.Add(1)
		body, _ := io.ReadAll(r.Body)
		if tm.refuse != "" && bytes.Contains(gunzip(t, body), []byte(tm.refuse)) {
			http.Error(w, `{"error":"too large"}`, http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if tm.lose != nil && tm.lose(n) {
			h.ServeHTTP(httptest.NewRecorder(), r)
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { tm.http.Close(); st.Close() })
	return tm
}

func gunzip(t *testing.T, b []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return b
	}
	out, _ := io.ReadAll(zr)
	return out
}

// local is a developer's local store.
func local(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "local.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func record(id string, i, lines int) tally.Record {
	return tally.Record{ID: id, Agent: claude.Agent, Project: "/home/ana/p", Title: fmt.Sprint("v", i),
		LastActivity: t0.Add(time.Duration(i) * time.Second), Signal: tally.SignalWorking,
		Lists: map[string][]tally.Item{"": {{Title: "step " + fmt.Sprint(i), Status: tally.StatusInProgress}}},
		Stats: tally.Stats{Lines: int64(lines)}}
}

func commit(t *testing.T, st tally.Store, recs ...tally.Record) {
	t.Helper()
	if err := st.Commit(context.Background(), tally.Batch{Sessions: recs}); err != nil {
		t.Fatal(err)
	}
}

type running struct {
	p    *push.Pusher
	stop func() error
	logs *lines
}

type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) add(s string) { l.mu.Lock(); l.l = append(l.l, s); l.mu.Unlock() }
func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.l, "\n")
}

func start(t *testing.T, tm *team, st tally.Store, state string, edit func(*push.Options)) *running {
	t.Helper()
	logs := &lines{}
	o := push.Options{Store: st, Server: tm.http.URL, Token: tm.token, Machine: "ana-laptop", User: "ana",
		StateFile: state, Poll: 20 * time.Millisecond, MinBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond, Log: logs.add}
	if edit != nil {
		edit(&o)
	}
	p, err := push.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	var once sync.Once
	var err2 error
	r := &running{p: p, logs: logs, stop: func() error {
		once.Do(func() { cancel(); err2 = <-done })
		return err2
	}}
	t.Cleanup(func() { r.stop() })
	return r
}

// waitAcked waits until the pusher has everything the local store holds
// acknowledged.
func (r *running) waitAcked(t *testing.T, st tally.Store) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		mark, _ := st.ChangeMark(context.Background())
		if r.p.Stats().Acked >= mark && mark > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("acked %d of %d; log:\n%s", r.p.Stats().Acked, mark, r.logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sameSessions checks the team holds exactly the local sessions, each
// stamped with its origin.
func sameSessions(t *testing.T, tm *team, st tally.Store) {
	t.Helper()
	ctx := context.Background()
	want, err := st.Records(ctx, tally.SessionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := tm.st.Records(ctx, tally.SessionFilter{Machine: "ana-laptop"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("the team holds %d sessions of the machine, the machine %d", len(got), len(want))
	}
	for i := range want {
		w := want[i]
		w.Machine, w.User = "ana-laptop", "ana"
		if got[i].ID != w.ID || got[i].Title != w.Title || got[i].Machine != w.Machine || got[i].User != w.User ||
			!got[i].LastActivity.Equal(w.LastActivity) {
			t.Errorf("session %d: team has %s %q (%s/%s), the machine %s %q", i, got[i].ID, got[i].Title, got[i].Machine, got[i].User, w.ID, w.Title)
		}
	}
}

// Every third answer is lost after the server applied the batch: the
// pusher sends it again, the server takes it as a repeat, and in the end
// the team holds each session once at its newest, every record applied
// exactly once.
func TestPush_lostAnswersDuplicateNothing(t *testing.T) {
	tm := newTeam(t)
	tm.lose = func(n int64) bool { return n%3 == 0 }
	st := local(t)
	const sessions, rounds = 20, 5
	r := start(t, tm, st, filepath.Join(t.TempDir(), "push.json"), func(o *push.Options) { o.BatchRecords = 7 })
	for round := range rounds {
		var recs []tally.Record
		for i := range sessions {
			recs = append(recs, record(fmt.Sprint("s", i), round*sessions+i, (round+1)*10))
		}
		commit(t, st, recs...)
		r.waitAcked(t, st)
	}
	sameSessions(t, tm, st)
	ps := tm.srv.Stats().Push
	st2 := r.p.Stats()
	if ps.Records != sessions*rounds || st2.Records != sessions*rounds {
		t.Errorf("the server wrote %d records, the pusher had %d acknowledged; %d were committed: something was applied twice or lost",
			ps.Records, st2.Records, sessions*rounds)
	}
	if st2.Repeats == 0 || st2.Retries == 0 {
		t.Errorf("no answer was lost (repeats %d, retries %d): the test tested nothing", st2.Repeats, st2.Retries)
	}
	if st2.Lines != sessions*rounds*10 {
		t.Errorf("changed lines %d, want %d (each round adds 10 lines to each session)", st2.Lines, sessions*rounds*10)
	}
}

// A pusher stopped and started again goes on from the mark it saved:
// what was acknowledged is not sent again.
func TestPush_resumesFromTheSavedMark(t *testing.T) {
	tm := newTeam(t)
	st := local(t)
	state := filepath.Join(t.TempDir(), "push.json")
	commit(t, st, record("a", 1, 5), record("b", 2, 5))
	r := start(t, tm, st, state, nil)
	r.waitAcked(t, st)
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	commit(t, st, record("c", 3, 5))
	r2 := start(t, tm, st, state, nil)
	r2.waitAcked(t, st)
	if got := r2.p.Stats(); got.Records != 1 || got.Repeats != 0 {
		t.Errorf("after a restart: %+v, want only c sent", got)
	}
	sameSessions(t, tm, st)
}

// The team's database was restored from a backup older than what the
// pusher had acknowledged: the server says from where to send again, and
// the sessions it lost come back.
func TestPush_serverThatLostSessionsGetsThemAgain(t *testing.T) {
	tm := newTeam(t)
	st := local(t)
	state := filepath.Join(t.TempDir(), "push.json")
	commit(t, st, record("a", 1, 5))
	r := start(t, tm, st, state, nil)
	r.waitAcked(t, st)
	r.stop()
	// A new, empty team database behind the same address and token.
	fresh := newTeam(t)
	tm.http.Config.Handler = fresh.http.Config.Handler
	commit(t, st, record("b", 2, 5))
	r2 := start(t, tm, st, state, func(o *push.Options) { o.Token = fresh.token })
	r2.waitAcked(t, st)
	sameSessions(t, fresh, st)
	if r2.p.Stats().Resends == 0 {
		t.Errorf("no resend was asked for: %+v", r2.p.Stats())
	}
	if log := r2.logs.String(); !strings.Contains(log, "the server lacks some of this machine's sessions") || strings.Contains(log, "mark") {
		t.Errorf("the log does not say it in a user's words:\n%s", log)
	}
}

// TestPush_aNewLocalIndexIsSaidInAUsersWords: "its change marks start
// below 1 … a new stream" named Tally's insides.
func TestPush_aNewLocalIndexIsSaidInAUsersWords(t *testing.T) {
	tm := newTeam(t)
	state := filepath.Join(t.TempDir(), "push.json")
	old := local(t)
	commit(t, old, record("a", 1, 5), record("b", 2, 5))
	r := start(t, tm, old, state, nil)
	r.waitAcked(t, old)
	r.stop()
	rebuilt := local(t)
	commit(t, rebuilt, record("a", 1, 5))
	r2 := start(t, tm, rebuilt, state, nil)
	// The saved mark is past the rebuilt store's: waiting for it to be
	// acknowledged would not wait. Its log line is what to wait for.
	const said = "this machine's index is not the one pushed before"
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(r2.logs.String(), said) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if log := r2.logs.String(); !strings.Contains(log, said) || strings.Contains(log, "stream") || strings.Contains(log, "mark") {
		t.Errorf("log:\n%s", log)
	}
}

// A session the server will not take on its own is skipped, said, and
// does not hold up the others.
func TestPush_aSessionTheServerRefusesIsSkipped(t *testing.T) {
	tm := newTeam(t)
	tm.refuse = `"id":"huge"`
	st := local(t)
	commit(t, st, record("a", 1, 5), record("huge", 2, 5), record("c", 3, 5))
	r := start(t, tm, st, filepath.Join(t.TempDir(), "push.json"), nil)
	r.waitAcked(t, st)
	if got := r.p.Stats().Skipped; got != 1 {
		t.Errorf("skipped %d, want 1", got)
	}
	if !strings.Contains(r.logs.String(), "session huge skipped") {
		t.Errorf("the log does not say which session was skipped:\n%s", r.logs)
	}
	recs, _ := tm.st.Records(context.Background(), tally.SessionFilter{})
	var ids []string
	for _, rec := range recs {
		ids = append(ids, rec.ID)
	}
	if strings.Join(ids, ",") != "c,a" {
		t.Errorf("the team holds %v, want c and a", ids)
	}
}

// A token the server refuses — unknown, or made for another machine —
// ends the pusher with an error that says what to do; it is not retried
// for ever.
func TestPush_refusedTokenEndsRun(t *testing.T) {
	tm := newTeam(t)
	for _, tc := range []struct{ name, token, machine, says string }{
		{"an unknown token", "tly_0000000000000000_" + strings.Repeat("A", 43), "ana-laptop", "tally token create --scope push --machine"},
		{"another machine's token", tm.token, "bo-desk", `pushes for machine "ana-laptop", not "bo-desk"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := local(t)
			commit(t, st, record("a", 1, 5))
			p, err := push.New(push.Options{Store: st, Server: tm.http.URL, Token: tc.token,
				Machine: tc.machine, StateFile: filepath.Join(t.TempDir(), "s.json")})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = p.Run(ctx)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("Run: %v, want it to say %q", err, tc.says)
			}
		})
	}
}

// Tally's own task lists stay on the machine: the team's lists are the
// server's.
func TestPush_ownTaskListsStayLocal(t *testing.T) {
	tm := newTeam(t)
	st := local(t)
	commit(t, st, tally.Record{ID: "tally:mine", Agent: tally.AgentTally, LastActivity: t0}, record("a", 1, 5))
	r := start(t, tm, st, filepath.Join(t.TempDir(), "push.json"), nil)
	r.waitAcked(t, st)
	if _, err := tm.st.Record(context.Background(), "tally:mine"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("a local task list reached the team: %v", err)
	}
}
