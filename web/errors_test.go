package web_test

import (
	"bytes"
	"encoding/json"
	"log"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/tallyhq/tally/web"
)

// lockedBuffer is a log's output, read while the server may write it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// errorOf is the error an answer carries for a person.
func errorOf(t *testing.T, body []byte) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
		t.Fatalf("answer %s carries no error", body)
	}
	return e.Error
}

// Operation names, which say where in Tally an error was met: a page and
// an API client are told what happened in a person's words instead.
var opNames = []string{"sqlite.", "sqlite:", "ParseActivity", "tasks."}

func wantWords(t *testing.T, what, msg, want string) {
	t.Helper()
	for _, op := range opNames {
		if strings.Contains(msg, op) {
			t.Errorf("%s: %q names Tally's own operation %s", what, msg, op)
		}
	}
	if !strings.Contains(msg, want) {
		t.Errorf("%s: %q does not say %q", what, msg, want)
	}
}

// TestAPI_ErrorsInAPersonsWords: answers say what happened without
// Tally's operation names; the server's own failures are logged whole.
func TestAPI_ErrorsInAPersonsWords(t *testing.T) {
	var logged lockedBuffer
	r := newRig(t, func(o *web.Options) { o.ErrorLog = log.New(&logged, "", 0) })
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{http.MethodGet, "/api/sessions/nosuch", http.StatusNotFound, `no session "nosuch"`},
		{http.MethodGet, "/api/sessions?activity=asleep", http.StatusBadRequest, `unknown activity "asleep"`},
		{http.MethodPost, "/api/tasks/nosuch/approve", http.StatusNotFound, `no task list "nosuch"`},
	} {
		hdr := []string{}
		if tc.method == http.MethodPost {
			hdr = []string{"Origin", r.http.URL}
		}
		resp, body := r.do(tc.method, tc.path, hdr...)
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, resp.StatusCode, body, tc.status)
			continue
		}
		wantWords(t, tc.method+" "+tc.path, errorOf(t, body), tc.want)
	}
	if got := logged.String(); got != "" {
		t.Errorf("a client's mistake was logged as the server's failure: %q", got)
	}

	t.Run("the server's own failure is logged with its operation", func(t *testing.T) {
		r.st.Close() // the store goes away under the server
		resp, body := r.get("/api/sessions")
		if resp.StatusCode < 500 {
			t.Fatalf("a closed store answered %d %s", resp.StatusCode, body)
		}
		wantWords(t, "GET /api/sessions on a closed store", errorOf(t, body), "closed")
		if got := logged.String(); !strings.Contains(got, "sqlite.") || !strings.Contains(got, "closed") {
			t.Errorf("the log reads %q, want the error whole, with the operation that met it", got)
		}
	})
}
