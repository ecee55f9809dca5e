package postgres

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/notify"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// TestLead_oneLeaderAtATime: handles on one database campaigning for one
// role: exactly one leads; when it stops campaigning another takes over;
// another role has a leader of its own.
func TestLead_oneLeaderAtATime(t *testing.T) {
	url := pgtest.DB(t)
	ctx := context.Background()
	var leases []tally.Lease
	var cancels []context.CancelFunc
	for range 3 {
		s := openTemp(t, url)
		t.Cleanup(func() { s.Close() })
		c, cancel := context.WithCancel(ctx)
		cancels = append(cancels, cancel)
		leases = append(leases, s.Lead(c, "notify"))
	}
	t.Cleanup(func() {
		for _, c := range cancels {
			c()
		}
	})
	leader := waitOneLeader(t, leases, -1)
	other := openTemp(t, url)
	t.Cleanup(func() { other.Close() })
	oc, ocancel := context.WithCancel(ctx)
	defer ocancel()
	if l := other.Lead(oc, "another role"); !waitFor(5*time.Second, l.Leading) {
		t.Error("another role has no leader while the first has one")
	}
	cancels[leader]()
	next := waitOneLeader(t, leases, leader)
	if next == leader {
		t.Fatalf("handle %d still leads after it stopped campaigning", leader)
	}
}

func waitFor(d time.Duration, f func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if f() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return f()
}

// waitOneLeader waits until exactly one lease (not gone) leads, checks it
// stays the only one for a while, and returns it.
func waitOneLeader(t *testing.T, leases []tally.Lease, gone int) int {
	t.Helper()
	count := func() (n, who int) {
		for i, l := range leases {
			if i != gone && l.Leading() {
				n, who = n+1, i
			}
		}
		return n, who
	}
	if !waitFor(10*time.Second, func() bool { n, _ := count(); return n == 1 }) {
		n, _ := count()
		t.Fatalf("%d leaders, want 1", n)
	}
	_, who := count()
	for range 20 {
		if n, _ := count(); n != 1 {
			t.Fatalf("%d leaders at once", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return who
}

// TestLead_NotificationsOncePerTeam: two replicas — processes of their own
// on one database — each follow the store's changes and notify a webhook
// while they lead the role "notify". One receiver: each event arrives
// once. The leader is killed (SIGKILL): the other takes over, and the next
// event arrives once too, the earlier one not again.
func TestLead_NotificationsOncePerTeam(t *testing.T) {
	url := pgtest.DB(t)
	rcv := newReceiver(t)
	a, b := startReplica(t, url, rcv.URL, "a"), startReplica(t, url, rcv.URL, "b")
	var leader, follower *leadReplica
	if !waitFor(15*time.Second, func() bool { return a.leading() != b.leading() }) {
		t.Fatalf("no single leader: a %v, b %v\n%s\n%s", a.leading(), b.leading(), a.log(), b.log())
	}
	leader, follower = a, b
	if b.leading() {
		leader, follower = b, a
	}
	st := openTemp(t, url)
	defer st.Close()
	needs := func(id string) {
		t.Helper()
		rec := tally.Record{ID: id, Agent: claude.Agent, Title: "waiting " + id, StartedAt: time.Now(), LastActivity: time.Now(), Signal: tally.SignalWaiting}
		if err := st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{rec}}); err != nil {
			t.Fatal(err)
		}
	}
	needs("s1")
	rcv.waitOnce(t, "s1")

	leader.kill()
	if !waitFor(10*time.Second, follower.leading) {
		t.Fatalf("the other replica did not take over:\n%s", follower.log())
	}
	needs("s2")
	rcv.waitOnce(t, "s2")
	time.Sleep(2 * time.Second) // long enough for a second copy of either to arrive
	rcv.wantCounts(t, map[string]int{"s1": 1, "s2": 1})
}

// receiver is one webhook endpoint counting the needs-input events per
// session.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	counts map[string]int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{counts: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var msg struct {
			Events []struct {
				Kind    string
				Session struct{ ID string }
			}
		}
		body, _ := io.ReadAll(req.Body)
		if err := json.Unmarshal(body, &msg); err != nil {
			t.Errorf("webhook body: %v: %s", err, body)
		}
		r.mu.Lock()
		for _, e := range msg.Events {
			if e.Kind == "needs_input" {
				r.counts[e.Session.ID]++
			}
		}
		r.mu.Unlock()
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) count(id string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts[id]
}

func (r *receiver) waitOnce(t *testing.T, id string) {
	t.Helper()
	if !waitFor(15*time.Second, func() bool { return r.count(id) > 0 }) {
		t.Fatalf("no notification for %s", id)
	}
}

func (r *receiver) wantCounts(t *testing.T, want map[string]int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, n := range want {
		if r.counts[id] != n {
			t.Errorf("%s notified %d times, want %d (all: %v)", id, r.counts[id], n, r.counts)
		}
	}
}

// leadReplica is a child process standing for a replica's notifier.
type leadReplica struct {
	cmd    *osexec.Cmd
	mu     sync.Mutex
	lead   bool
	out    strings.Builder
	exited chan struct{}
}

func startReplica(t *testing.T, url, hook, name string) *leadReplica {
	t.Helper()
	cmd := osexec.Command(os.Args[0], "-test.run=^TestLeadChild$", "-test.v")
	cmd.Env = append(os.Environ(), "LEAD_CHILD_DB="+url, "LEAD_CHILD_HOOK="+hook, "LEAD_CHILD_NAME="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &leadReplica{cmd: cmd, exited: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			r.out.WriteString(line + "\n")
			switch line {
			case "LEADING":
				r.lead = true
			case "FOLLOWING":
				r.lead = false
			}
			r.mu.Unlock()
		}
		cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(r.kill)
	return r
}

func (r *leadReplica) leading() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lead
}

func (r *leadReplica) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

func (r *leadReplica) kill() {
	_ = r.cmd.Process.Kill()
	<-r.exited
	r.mu.Lock()
	r.lead = false
	r.mu.Unlock()
}

// TestLeadChild is a replica's notifier, run by TestLead_NotificationsOncePerTeam
// in a process of its own: it follows the store's changes, and while it
// leads "notify" it publishes each to a notifier made when it began to
// lead (what happened before is history to it, so a new leader repeats
// nothing), which sends it to the webhook.
func TestLeadChild(t *testing.T) {
	url := os.Getenv("LEAD_CHILD_DB")
	if url == "" {
		t.Skip("run by TestLead_NotificationsOncePerTeam")
	}
	ctx := context.Background()
	st, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	hook, err := notify.NewWebhook(notify.WebhookOptions{URL: os.Getenv("LEAD_CHILD_HOOK"), Format: notify.FormatJSON})
	if err != nil {
		t.Fatal(err)
	}
	lease := st.Lead(ctx, "notify")
	mark, err := st.ChangeMark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var n *notify.Notifier
	watch := st.Watch(ctx)
	fmt.Println("FOLLOWING")
	for {
		select {
		case on := <-lease.Changes():
			if on && n == nil {
				n = notify.New(ctx, notify.Options{Burst: -1, Sinks: []notify.SinkOptions{{Sink: hook}}})
				fmt.Println("LEADING")
			}
			if !on && n != nil {
				n.Close()
				n = nil
				fmt.Println("FOLLOWING")
			}
		case <-watch:
		case <-time.After(time.Second):
		}
		recs, next, err := st.Changed(ctx, mark)
		if err != nil {
			continue
		}
		mark = next
		for _, r := range recs {
			if n == nil || !lease.Leading() {
				continue
			}
			n.Publish(notify.Update{
				Session: notify.Session{ID: r.ID, Agent: r.Agent, Title: r.Title, StartedAt: r.StartedAt},
				At:      r.LastActivity, Flags: tally.Flags{}.With(tally.FlagNeedsInput, r.LastActivity),
			})
		}
	}
}
