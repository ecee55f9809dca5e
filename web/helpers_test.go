package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/web"
)

const captured = "../testdata/fixtures/captured/claude-code-2.1.330/"

// The two captured sessions every test serves (captured/README.md).
const (
	todowriteID = "bfd476f6-2564-4246-aaa4-e4c25c7ee9b5"
	tasksID     = "ff833579-73c0-4d20-92ee-931086a0b9c3"
)

// capturePath is the transcript of a captured scenario.
func capturePath(tb testing.TB, scenario string) string {
	tb.Helper()
	m, _ := filepath.Glob(filepath.Join(captured, scenario, "config/projects/*/*.jsonl"))
	if len(m) != 1 {
		tb.Fatalf("capture %s: %v", scenario, m)
	}
	return m[0]
}

// clock is a settable time for the server and the views.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// rig is a server over a Claude home holding the todowrite and tasks
// captures, indexed once into a real SQLite store.
type rig struct {
	tb   testing.TB
	home string
	st   *sqlite.Store
	// changes is what the server follows: the tests publish on it the
	// changes an indexer publishes after a commit.
	changes *broker.Broker[index.Change]
	srv     *web.Server
	http    *httptest.Server
	clock   *clock
	ctx     context.Context
	// done delivers Run's result once running.
	done    chan error
	running bool
}

// newRig builds the rig and runs its hub; edit adjusts the options (nil:
// defaults).
func newRig(tb testing.TB, edit func(*web.Options)) *rig {
	tb.Helper()
	r := newRigIdle(tb, edit)
	r.run()
	return r
}

// newRigIdle builds the rig without running the hub: changes published
// meanwhile wait in (or overflow) its backlog.
func newRigIdle(tb testing.TB, edit func(*web.Options)) *rig {
	tb.Helper()
	home := tb.TempDir()
	for _, sc := range []string{"todowrite", "tasks"} {
		src := capturePath(tb, sc)
		dir := filepath.Join(home, "projects", filepath.Base(filepath.Dir(src)))
		data, err := os.ReadFile(src)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "tally.db"))
	if err != nil {
		tb.Fatal(err)
	}
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		tb.Fatal(err)
	}
	r := &rig{tb: tb, home: home, st: st, changes: broker.New[index.Change](), ctx: ctx, clock: &clock{}}
	// A minute after the tasks capture's last line: both sessions live.
	r.clock.Set(r.record(tasksID).LastActivity.Add(time.Minute))
	o := web.Options{Indexer: r.changes, Store: st, Lists: st, Now: r.clock.Now}
	if edit != nil {
		edit(&o)
	}
	r.srv = web.New(o)
	r.done = make(chan error, 1)
	// The server every test talks to has the limits tally serve's has.
	r.http = httptest.NewUnstartedServer(nil)
	r.http.Config = r.srv.HTTPServer()
	r.http.Start()
	tb.Cleanup(func() {
		cancel()
		if r.running {
			if err := <-r.done; err != nil {
				tb.Errorf("Run: %v", err)
			}
		}
		r.http.Close()
		st.Close()
	})
	return r
}

func (r *rig) run() {
	r.running = true
	go func() { r.done <- r.srv.Run(r.ctx) }()
}

func (r *rig) record(id string) tally.Record {
	r.tb.Helper()
	rec, err := r.st.Record(context.Background(), id)
	if err != nil {
		r.tb.Fatal(err)
	}
	return rec
}

// publish hands the hub a change as the indexer would after a commit.
func (r *rig) publish(ch index.Change) { r.changes.Publish(ch) }

// retitled is a session's record under another title: an update the
// tests can tell apart.
func (r *rig) retitled(id, title string) index.Change {
	rec := r.record(id)
	rec.Title = title
	return index.Change{Kind: index.SessionUpdated, ID: id, Record: rec}
}

// waitPublished waits until the hub has produced n events this run.
func (r *rig) waitPublished(n uint64) {
	r.tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.srv.Stats().EventsPublished < n {
		if time.Now().After(deadline) {
			r.tb.Fatalf("hub published %d events, want %d", r.srv.Stats().EventsPublished, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (r *rig) get(path string, hdr ...string) (*http.Response, []byte) {
	r.tb.Helper()
	return r.do(http.MethodGet, path, hdr...)
}

// do sends a request with header pairs ("Host" sets the Host) and reads
// the whole answer.
func (r *rig) do(method, path string, hdr ...string) (*http.Response, []byte) {
	r.tb.Helper()
	req, err := http.NewRequest(method, r.http.URL+path, nil)
	if err != nil {
		r.tb.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		r.tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		r.tb.Fatal(err)
	}
	return resp, body
}

func (r *rig) addr() string { return strings.TrimPrefix(r.http.URL, "http://") }

// sseEvent is one parsed event of the stream.
type sseEvent struct {
	ID, Event, Data string
}

// sseConn is an EventSource-like client on a bare connection: one
// goroutine-free reader, light enough to open a thousand.
type sseConn struct {
	conn net.Conn
	body *bufio.Reader
}

// dialSSE opens /api/events with extra request header lines ("K: V").
func dialSSE(tb testing.TB, addr string, header ...string) *sseConn {
	tb.Helper()
	c, err := dialSSEErr(addr, header...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.conn.Close() })
	return c
}

func dialSSEErr(addr string, header ...string) (*sseConn, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	req := "GET /api/events HTTP/1.1\r\nHost: " + addr + "\r\nAccept: text/event-stream\r\n"
	for _, h := range header {
		req += h + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		conn.Close()
		return nil, err
	}
	return &sseConn{conn: conn}, nil
}

// start reads the response head; a stalled client never calls it.
func (c *sseConn) start() error {
	c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c.conn), nil)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		return fmt.Errorf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	c.body = bufio.NewReader(resp.Body)
	return nil
}

// next returns the next event, skipping comments and retry-only blocks.
func (c *sseConn) next() (sseEvent, error) {
	if c.body == nil {
		if err := c.start(); err != nil {
			return sseEvent{}, err
		}
	}
	c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	var ev sseEvent
	for {
		line, err := c.body.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if ev.Event != "" || ev.Data != "" {
				return ev, nil
			}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.ID = value
		case "event":
			ev.Event = value
		case "data":
			ev.Data += value
		}
	}
}

func (c *sseConn) mustNext(tb testing.TB) sseEvent {
	tb.Helper()
	ev, err := c.next()
	if err != nil {
		tb.Fatal(err)
	}
	return ev
}

// snapshotOf decodes a snapshot event's data.
func snapshotOf(tb testing.TB, ev sseEvent) (sessions []tally.Session) {
	tb.Helper()
	if ev.Event != "snapshot" {
		tb.Fatalf("got %q event, want snapshot", ev.Event)
	}
	var d struct {
		Sessions []tally.Session `json:"sessions"`
		Now      time.Time       `json:"now"`
	}
	if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
		tb.Fatal(err)
	}
	return d.Sessions
}

func sessionOf(tb testing.TB, ev sseEvent) tally.Session {
	tb.Helper()
	if ev.Event != "session_updated" {
		tb.Fatalf("got %q event, want session_updated", ev.Event)
	}
	var s tally.Session
	if err := json.Unmarshal([]byte(ev.Data), &s); err != nil {
		tb.Fatal(err)
	}
	return s
}
