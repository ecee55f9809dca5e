package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/web"
)

// lastTodoWrite reads the agent's own record of its list: the todos of
// the last TodoWrite call in a transcript.
func lastTodoWrite(t *testing.T, path string) (done, total int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			Message struct {
				Content []struct {
					Name  string `json:"name"`
					Input struct {
						Todos []struct{ Status string } `json:"todos"`
					} `json:"input"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		for _, c := range l.Message.Content {
			if c.Name != "TodoWrite" {
				continue
			}
			done, total = 0, len(c.Input.Todos)
			for _, td := range c.Input.Todos {
				if td.Status == "completed" {
					done++
				}
			}
		}
	}
	return done, total
}

func TestEvents_snapshotFirst(t *testing.T) {
	r := newRig(t, nil)
	c := dialSSE(t, r.addr())
	ev := c.mustNext(t)
	got := snapshotOf(t, ev)
	if len(got) != 2 {
		t.Fatalf("snapshot holds %d sessions, want the 2 captured", len(got))
	}
	done, total := lastTodoWrite(t, capturePath(t, "todowrite"))
	for _, s := range got {
		if s.ID == todowriteID && (s.Progress.Done != done || s.Progress.Total != total) {
			t.Errorf("todowrite session %d/%d done, its last TodoWrite says %d/%d", s.Progress.Done, s.Progress.Total, done, total)
		}
	}
	if ev.ID != r.srv.Stats().LastEventID {
		t.Errorf("snapshot id %s, want the hub's position %s", ev.ID, r.srv.Stats().LastEventID)
	}
}

func TestEvents_reconnect(t *testing.T) {
	r := newRig(t, func(o *web.Options) { o.Replay = 8 })
	c := dialSSE(t, r.addr())
	snap := c.mustNext(t)
	for i := 1; i <= 3; i++ {
		r.publish(r.retitled(tasksID, fmt.Sprintf("step %d", i)))
	}
	var ids []uint64
	prev, _ := strconv.ParseUint(snap.ID, 10, 64)
	for i := 1; i <= 3; i++ {
		ev := c.mustNext(t)
		if s := sessionOf(t, ev); s.Title != fmt.Sprintf("step %d", i) {
			t.Fatalf("event %d is %q", i, s.Title)
		}
		id, err := strconv.ParseUint(ev.ID, 10, 64)
		if err != nil || id <= prev {
			t.Fatalf("event id %q after %d: ids must increase", ev.ID, prev)
		}
		prev = id
		ids = append(ids, id)
	}
	c.conn.Close()
	r.publish(r.retitled(tasksID, "step 4"))
	r.publish(r.retitled(tasksID, "step 5"))

	t.Run("missed events are replayed", func(t *testing.T) {
		c := dialSSE(t, r.addr(), "Last-Event-ID: "+strconv.FormatUint(ids[0], 10))
		for i := 2; i <= 5; i++ {
			if s := sessionOf(t, c.mustNext(t)); s.Title != fmt.Sprintf("step %d", i) {
				t.Fatalf("replay gave %q, want step %d", s.Title, i)
			}
		}
	})
	t.Run("an up-to-date client gets only what comes next", func(t *testing.T) {
		r.waitPublished(5)
		c := dialSSE(t, r.addr(), "Last-Event-ID: "+r.srv.Stats().LastEventID)
		r.publish(r.retitled(tasksID, "step 6"))
		if s := sessionOf(t, c.mustNext(t)); s.Title != "step 6" {
			t.Fatalf("got %q, want step 6", s.Title)
		}
	})
	t.Run("an id older than the ring gets a snapshot", func(t *testing.T) {
		for i := 7; i <= 16; i++ {
			r.publish(r.retitled(tasksID, fmt.Sprintf("step %d", i)))
		}
		r.waitPublished(16)
		c := dialSSE(t, r.addr(), "Last-Event-ID: "+strconv.FormatUint(ids[0], 10))
		ev := c.mustNext(t)
		snapshotOf(t, ev)
		if ev.ID != r.srv.Stats().LastEventID {
			t.Errorf("snapshot id %s, want %s", ev.ID, r.srv.Stats().LastEventID)
		}
	})
	for name, id := range map[string]string{
		"an id of an earlier run gets a snapshot": strconv.FormatUint(ids[0]-5_000_000, 10),
		"an id from the future gets a snapshot":   strconv.FormatUint(ids[0]+5_000_000, 10),
		"a malformed id gets a snapshot":          "bogus",
	} {
		t.Run(name, func(t *testing.T) {
			snapshotOf(t, dialSSE(t, r.addr(), "Last-Event-ID: "+id).mustNext(t))
		})
	}
}

// TestEvents_anotherReplicasIDGetsSnapshot: two servers started at the
// same instant (replicas behind a load balancer, one clock) publish the
// same number of events; a browser whose server died reconnects to the
// other with the last id it saw, and must get a snapshot: the other
// server's events after that number are not what it missed.
func TestEvents_anotherReplicasIDGetsSnapshot(t *testing.T) {
	a, b := newRig(t, nil), newRig(t, nil)
	for i := 1; i <= 5; i++ {
		a.publish(a.retitled(tasksID, fmt.Sprintf("a %d", i)))
		b.publish(b.retitled(tasksID, fmt.Sprintf("b %d", i)))
	}
	a.waitPublished(5)
	b.waitPublished(5)
	ida, _ := strconv.ParseUint(a.srv.Stats().LastEventID, 10, 64)
	c := dialSSE(t, b.addr(), "Last-Event-ID: "+strconv.FormatUint(ida-2, 10))
	if ev := c.mustNext(t); ev.Event != "snapshot" {
		t.Fatalf("a browser coming from another replica got %q (id %s), want a snapshot", ev.Event, ev.ID)
	}
}

func TestEvents_removed(t *testing.T) {
	r := newRig(t, nil)
	c := dialSSE(t, r.addr())
	c.mustNext(t)
	r.publish(index.Change{Kind: index.SessionRemoved, ID: todowriteID})
	ev := c.mustNext(t)
	if ev.Event != "session_removed" || ev.Data != `{"id":"`+todowriteID+`"}` {
		t.Fatalf("got %+v", ev)
	}
}

// Text from agent logs reaches the page only as escaped JSON.
func TestEvents_untrustedTextEscaped(t *testing.T) {
	r := newRig(t, nil)
	c := dialSSE(t, r.addr())
	c.mustNext(t)
	const evil = "</script><script>alert(1)</script>\ndata: forged\n\nevent: session_removed"
	r.publish(r.retitled(tasksID, evil))
	ev := c.mustNext(t)
	if strings.Contains(ev.Data, "<script>") {
		t.Errorf("raw markup in the stream: %s", ev.Data)
	}
	if s := sessionOf(t, ev); s.Title != evil {
		t.Errorf("title came through as %q", s.Title)
	}
}

// As time passes, a live session's activity changes without any new line:
// the page is told.
func TestEvents_activityFollowsTheClock(t *testing.T) {
	r := newRig(t, func(o *web.Options) { o.Refresh = 10 * time.Millisecond })
	c := dialSSE(t, r.addr())
	live := map[string]bool{}
	for _, s := range snapshotOf(t, c.mustNext(t)) {
		if s.Activity != tally.ActivityEnded {
			live[s.ID] = true
		}
	}
	if len(live) == 0 {
		t.Fatal("no live session in the snapshot")
	}
	r.clock.Set(r.clock.Now().Add(tally.EndedAfter + time.Minute))
	for len(live) > 0 {
		s := sessionOf(t, c.mustNext(t))
		if s.Activity != tally.ActivityEnded || !live[s.ID] {
			t.Fatalf("got %s %s, want the live sessions to end", s.ID, s.Activity)
		}
		delete(live, s.ID)
	}
}

func TestEvents_thousandClients(t *testing.T) {
	const n = 1000
	r := newRig(t, func(o *web.Options) { o.MaxConnsPerClient, o.MaxStreams = n+10, n })
	conns := make([]*sseConn, n)
	for i := range conns {
		conns[i] = dialSSE(t, r.addr())
	}
	var ready, got sync.WaitGroup
	ready.Add(n)
	got.Add(n)
	errs := make(chan error, n)
	for _, c := range conns {
		go func() {
			defer got.Done()
			ev, err := c.next()
			ready.Done()
			if err == nil && ev.Event != "snapshot" {
				err = fmt.Errorf("first event %q", ev.Event)
			}
			for err == nil {
				if ev, err = c.next(); err == nil && ev.Event == "session_updated" && strings.Contains(ev.Data, `"title":"fan out"`) {
					return
				}
			}
			errs <- err
		}()
	}
	ready.Wait()
	r.publish(r.retitled(tasksID, "fan out"))
	got.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st := r.srv.Stats(); st.Clients != n || st.Drops != 0 {
		t.Errorf("stats %+v, want %d clients and no drops", st, n)
	}
}

// A client that never reads is cut off; the others get every event, in
// order, meanwhile. Two things cut it off, whichever comes first: its
// buffer overflowing (a drop, counted) and a write blocked past
// WriteTimeout. Each is tested alone: which comes first depends on how
// loaded the machine is.
func TestEvents_stalledClient(t *testing.T) {
	t.Run("a full buffer is a drop, counted", func(t *testing.T) {
		r := stalledClient(t, 8, time.Minute)
		if st := r.srv.Stats(); st.Drops != 1 || st.Clients != 1 {
			t.Errorf("stats %+v: want the stalled client dropped and counted, the reader still there", st)
		}
	})
	t.Run("a blocked write is cut off by the deadline", func(t *testing.T) {
		r := stalledClient(t, 4096, 300*time.Millisecond)
		deadline := time.Now().Add(10 * time.Second)
		for r.srv.Stats().Clients != 1 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if st := r.srv.Stats(); st.Drops != 0 || st.Clients != 1 {
			t.Errorf("stats %+v: want the stalled client cut off without a drop, the reader still there", st)
		}
	})
}

// stalledClient opens a stream that never reads and one that does, then
// publishes 20 MB of events, more than the kernel buffers between them
// and the server hold, checking that the reader gets every one in order.
func stalledClient(t *testing.T, buffer int, timeout time.Duration) *rig {
	t.Helper()
	r := newRig(t, func(o *web.Options) {
		o.ClientBuffer = buffer
		o.WriteTimeout = timeout
	})
	dialSSE(t, r.addr()) // sends its request, never reads
	c := dialSSE(t, r.addr())
	c.mustNext(t)
	big := strings.Repeat("x", 64<<10)
	const waves, per = 40, 8
	for w := range waves {
		for i := range per {
			r.publish(r.retitled(tasksID, fmt.Sprintf("%d %s", w*per+i, big)))
		}
		for i := range per {
			s := sessionOf(t, c.mustNext(t))
			if want := fmt.Sprintf("%d ", w*per+i); !strings.HasPrefix(s.Title, want) {
				t.Fatalf("got event %.10q, want %q", s.Title, want)
			}
		}
	}
	return r
}

func TestEvents_heartbeat(t *testing.T) {
	r := newRig(t, func(o *web.Options) { o.Heartbeat = 20 * time.Millisecond })
	c := dialSSE(t, r.addr())
	c.mustNext(t)
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		line, err := c.body.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == ": ping\n" {
			return
		}
	}
}

// When the indexer drops changes for the server, what clients hold can no
// longer be patched: the replay ring is forgotten and every client starts
// again from a snapshot.
func TestEvents_indexerDropResyncs(t *testing.T) {
	r := newRigIdle(t, func(o *web.Options) { o.ChangeBuffer = 4 })
	for i := range 10 {
		r.publish(r.retitled(tasksID, fmt.Sprintf("step %d", i)))
	}
	r.run()
	r.waitPublished(4)
	r.publish(r.retitled(tasksID, "after"))
	r.waitPublished(5)
	st := r.srv.Stats()
	if st.IndexerDrops != 6 || st.Resyncs != 1 {
		t.Errorf("stats %+v: want 6 drops and one resync", st)
	}
	// "step 3" was sent before the lost steps were known to be lost:
	// resuming after it would skip them, so it gets a snapshot.
	last, _ := strconv.ParseUint(st.LastEventID, 10, 64)
	c := dialSSE(t, r.addr(), "Last-Event-ID: "+strconv.FormatUint(last-1, 10))
	snapshotOf(t, c.mustNext(t))
	// Resuming after an event that followed the resync is safe.
	r.publish(r.retitled(tasksID, "after 2"))
	r.waitPublished(6)
	c = dialSSE(t, r.addr(), "Last-Event-ID: "+st.LastEventID)
	if s := sessionOf(t, c.mustNext(t)); s.Title != "after 2" {
		t.Errorf("replay after the resync gave %q", s.Title)
	}
}

// outage is a store whose sessions cannot be read while down is set, as a
// database that restarts or cuts its connections.
type outage struct {
	tally.Store
	down atomic.Bool
}

func (o *outage) Records(ctx context.Context, f tally.SessionFilter) ([]tally.Record, error) {
	if o.down.Load() {
		return nil, errors.New("connection refused")
	}
	return o.Store.Records(ctx, f)
}

// A store out of reach when the server starts does not end the server:
// once the store answers again, the live sessions are watched and the page
// is told of their activity as time passes, as if nothing had happened.
func TestEvents_aStoreOutOfReachAtStartIsWaitedFor(t *testing.T) {
	var st *outage
	var logged lockedBuffer
	r := newRigIdle(t, func(o *web.Options) {
		st = &outage{Store: o.Store}
		st.down.Store(true)
		o.Store, o.Refresh = st, 10*time.Millisecond
		o.ErrorLog = log.New(&logged, "", 0)
	})
	r.run()
	time.Sleep(50 * time.Millisecond) // several ticks with the store down
	select {
	case err := <-r.done:
		r.running = false
		t.Fatalf("the server ended while its store was out of reach: %v", err)
	default:
	}
	if !strings.Contains(logged.String(), "connection refused") {
		t.Errorf("the failure is not logged: %q", logged.String())
	}
	st.down.Store(false)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logged.String(), "read again"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server never read its store again: %q", logged.String())
		}
	}
	c := dialSSE(t, r.addr())
	live := 0
	for _, s := range snapshotOf(t, c.mustNext(t)) {
		if s.Activity != tally.ActivityEnded {
			live++
		}
	}
	if live == 0 {
		t.Fatal("no live session in the snapshot")
	}
	r.clock.Set(r.clock.Now().Add(tally.EndedAfter + time.Minute))
	for ; live > 0; live-- {
		if s := sessionOf(t, c.mustNext(t)); s.Activity != tally.ActivityEnded {
			t.Fatalf("got %s %s, want the live sessions to end", s.ID, s.Activity)
		}
	}
}
