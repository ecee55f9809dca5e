package e2e

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	domain "github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// Two serve replicas on one database send to one webhook: a session that
// comes to need its user is told to the team once, not once per replica,
// and when the replica that notifies is killed the other tells the next.
func TestReplicas_NotifyOncePerTeam(t *testing.T) {
	url := pgtest.DB(t)
	var mu sync.Mutex
	var got []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(body))
		mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	received := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
	args := []string{"--notify-webhook", hook.URL, "--set", "notify.desktop=false"}
	replicas := []*servetest.Replica{servetest.Start(t, tallyBin, url, args...), servetest.Start(t, tallyBin, url, args...)}

	ctx := context.Background()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// asks commits a session whose agent asks its user now, as a hook's
	// mark or a permission request in its log would make it.
	asks := func(id, title string) {
		t.Helper()
		now := time.Now().UTC()
		rec := domain.Record{ID: id, Agent: claude.Agent, Project: "/home/dev/src/shop", Title: title,
			StartedAt: now.Add(-time.Minute), LastActivity: now, Signal: domain.SignalAsking}
		if err := st.Commit(ctx, domain.Batch{Sessions: []domain.Record{rec}}); err != nil {
			t.Fatal(err)
		}
	}
	// waitTold waits until n messages came and says nothing more comes
	// for a while (a second replica's message would come within its
	// burst window of the first).
	waitTold := func(n int, what string) []string {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for len(received()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d messages after 30 s, want %d\nA: %s\nB: %s", what, len(received()), n, replicas[0].Stderr(), replicas[1].Stderr())
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(5 * time.Second)
		return received()
	}

	// Both replicas campaign at start and every second after: give the
	// election a moment, as a team's servers run long before news comes.
	time.Sleep(2 * time.Second)
	asks("7c1e2a90-team-notify-1", "Fix the login")
	msgs := waitTold(1, "the first session asking")
	if len(msgs) != 1 || !strings.Contains(msgs[0], "Fix the login") {
		t.Fatalf("the team got %d messages, want 1 naming the session:\n%s", len(msgs), strings.Join(msgs, "\n"))
	}

	// Kill each replica in turn until the one that notified is gone (the
	// test cannot see which leads): a survivor must take the role over.
	replicas[0].Kill()
	time.Sleep(3 * time.Second) // another campaigns within a second of the lock going
	asks("7c1e2a90-team-notify-2", "Add the rate limiter")
	msgs = waitTold(2, "a session asking after a replica died")
	if len(msgs) != 2 || !strings.Contains(msgs[1], "Add the rate limiter") {
		t.Fatalf("after a replica died the team got %d messages, want 2, the second naming the new session:\n%s", len(msgs), strings.Join(msgs, "\n"))
	}
}
