package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/tallyhq/tally"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// start is the notifier's clock at New: conditions before it are history.
var start = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

func after(d time.Duration) time.Time { return start.Add(d) }

// request is one POST the receiver got.
type request struct {
	Path string
	Type string
	Body []byte
	At   time.Time
}

// receiver is a real HTTP server on loopback that records every request
// and answers with the statuses it is given in turn (200 after the last).
type receiver struct {
	srv *httptest.Server
	got chan request

	mu       sync.Mutex
	statuses []int
	headers  map[string]string
	hang     bool
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	t.Helper()
	r := &receiver{got: make(chan request, 100), statuses: statuses}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.got <- request{Path: req.URL.RequestURI(), Type: req.Header.Get("Content-Type"), Body: body, At: time.Now()}
		r.mu.Lock()
		status := http.StatusOK
		if len(r.statuses) > 0 {
			status, r.statuses = r.statuses[0], r.statuses[1:]
		}
		for k, v := range r.headers {
			w.Header().Set(k, v)
		}
		hang := r.hang
		r.mu.Unlock()
		if hang {
			<-req.Context().Done()
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, http.StatusText(status))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// client sends every request to the receiver whatever the URL's host, so
// that real webhook URLs (hooks.slack.com, …) choose their formats while
// the bytes go to loopback.
func (r *receiver) client(t *testing.T) *http.Client {
	target, _ := url.Parse(r.srv.URL)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Timeout: 5 * time.Second, Transport: rewrite{target: target, next: tr}}
}

type rewrite struct {
	target *url.URL
	next   http.RoundTripper
}

func (rw rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = rw.target.Scheme, rw.target.Host
	return rw.next.RoundTrip(req)
}

// drain returns every request received so far, without waiting.
func (r *receiver) drain() []request {
	var out []request
	for {
		select {
		case q := <-r.got:
			out = append(out, q)
		default:
			return out
		}
	}
}

// next waits for one request; the bound only keeps a broken test from
// hanging, it measures nothing.
func (r *receiver) next(t *testing.T) request {
	t.Helper()
	select {
	case q := <-r.got:
		return q
	case <-time.After(30 * time.Second):
		t.Fatal("no request came")
		return request{}
	}
}

func (r *receiver) webhook(t *testing.T, rawURL string, format Format) *Webhook {
	t.Helper()
	w, err := NewWebhook(WebhookOptions{URL: rawURL, Format: format, Client: r.client(t)})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// events decodes the JSON payloads' events as "kind session" words.
func jsonEvents(t *testing.T, reqs []request) [][]string {
	t.Helper()
	var out [][]string
	for _, q := range reqs {
		var m jsonMessage
		if err := json.Unmarshal(q.Body, &m); err != nil {
			t.Fatalf("payload %s: %v", q.Body, err)
		}
		var words []string
		for _, e := range m.Events {
			w := e.Kind.String() + " " + e.Session.ID
			if e.Via != "" {
				w += " via " + e.Via
			}
			words = append(words, w)
		}
		out = append(out, words)
	}
	return out
}

// eventually waits until cond holds; the bound only keeps a broken test
// from hanging.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// flat is the events of all the messages, in order.
func flat(msgs [][]string) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m...)
	}
	return out
}

func pretty(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		t.Fatalf("not JSON: %s", b)
	}
	return buf.String() + "\n"
}

func newNotifier(t *testing.T, opts Options, sinks ...Sink) (*Notifier, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	for _, s := range sinks {
		opts.Sinks = append(opts.Sinks, SinkOptions{Sink: s})
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return start }
	}
	if opts.Retry == (Retry{}) {
		opts.Retry = Retry{Attempts: 5, First: time.Millisecond, Max: 10 * time.Millisecond}
	}
	n := New(ctx, opts)
	t.Cleanup(func() { cancel(); n.Close() })
	return n, cancel
}

func sess(id string) Session {
	return Session{ID: id, Agent: "claude", Project: "/home/dev/tally", Title: "Session " + id, StartedAt: start.Add(-time.Hour)}
}

func flags(pairs ...any) tally.Flags {
	var f tally.Flags
	for i := 0; i < len(pairs); i += 2 {
		f = f.With(pairs[i].(tally.Flag), pairs[i+1].(time.Time))
	}
	return f
}
