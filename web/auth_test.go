package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/token"
	"github.com/tallyhq/tally/web"
)

// issue stores a new token of scope in the rig's store and returns it; a
// push token pushes for machine "m".
func (r *rig) issue(scope tally.Scope) string {
	r.tb.Helper()
	return r.issueFor(scope, "m", "")
}

// issueFor stores a new token of scope, a push token bound to machine
// and user, and returns it.
func (r *rig) issueFor(scope tally.Scope, machine, user string) string {
	r.tb.Helper()
	secret, t, hash := token.New(scope.String(), scope, time.Now())
	if scope == tally.ScopePush {
		t.Machine, t.User = machine, user
	}
	if err := r.st.AddToken(context.Background(), t, hash); err != nil {
		r.tb.Fatal(err)
	}
	return secret
}

func tokenRig(t *testing.T) *rig {
	return newRig(t, func(o *web.Options) {
		o.RequireToken = true
		o.Tokens = o.Store.(tally.TokenKeeper)
		o.Ingest = o.Store.(tally.Ingester)
		o.Extra = map[string]http.Handler{"/mcp": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {})}
	})
}

// Each scope does what it is for and nothing else: read reads, write
// reads and writes, push only pushes; a request past its scope is told
// which scope it needs.
func TestGuard_scopes(t *testing.T) {
	r := tokenRig(t)
	read, write, push := r.issue(tally.ScopeRead), r.issue(tally.ScopeWrite), r.issue(tally.ScopePush)
	bearer := func(tok string) []string {
		return []string{"Authorization", "Bearer " + tok, "Host", "tally.example.org"}
	}
	pushBody := `{"machine":"m","user":"u","stream":"s","from":0,"to":1,"sessions":[]}`
	for _, tc := range []struct {
		method, path, tok string
		want              int
	}{
		{"GET", "/api/sessions", read, 200},
		{"GET", "/api/sessions", write, 200},
		{"GET", "/api/sessions", push, 403},
		{"GET", "/api/stats", push, 403},
		{"POST", "/api/tasks/x/approve", read, 403},
		{"POST", "/api/tasks/x/approve", write, 404}, // allowed; no such list
		{"GET", "/mcp", read, 403},
		{"POST", "/mcp", write, 200},
		{"POST", "/api/push", read, 403},
		{"POST", "/api/push", write, 403},
		{"POST", "/api/push", push, 200},
		{"GET", "/api/sessions", "tly_0000000000000000_" + strings.Repeat("A", 43), 401},
	} {
		var body []byte
		if tc.path == "/api/push" {
			body = []byte(pushBody)
		}
		resp, got := r.send(tc.method, tc.path, body, bearer(tc.tok)...)
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s with a %s token: %d %s, want %d", tc.method, tc.path, scopeOf(tc.tok, read, write, push), resp.StatusCode, got, tc.want)
		}
		if resp.StatusCode == 403 && !strings.Contains(string(got), "needs one made with tally token create --scope ") {
			t.Errorf("%s %s refused without saying which scope it needs: %s", tc.method, tc.path, got)
		}
	}
	t.Run("a revoked token stops working within the cache's time", func(t *testing.T) {
		tok := r.issue(tally.ScopeRead)
		if resp, _ := r.get("/api/sessions", bearer(tok)...); resp.StatusCode != 200 {
			t.Fatalf("before: %d", resp.StatusCode)
		}
		id, _ := token.ID(tok)
		if _, err := r.st.RevokeToken(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		r.clock.Set(r.clock.Now().Add(11 * time.Second))
		if resp, _ := r.get("/api/sessions", bearer(tok)...); resp.StatusCode != 401 {
			t.Errorf("a revoked token 11 s later: %d, want 401", resp.StatusCode)
		}
	})
	// "A token is required" read as though none was sent: a person then
	// looks for the mistake in the wrong place.
	t.Run("a token sent but not valid is told so, not that one is required", func(t *testing.T) {
		for _, h := range [][]string{bearer("tly_bogus_secret"), bearer("not-even-a-token"), {"Authorization", "Basic eDp5"}} {
			resp, body := r.get("/api/sessions", h...)
			if resp.StatusCode != 401 || !bytes.Contains(body, []byte("the token sent is not valid")) {
				t.Errorf("%v: %d %s", h, resp.StatusCode, body)
			}
		}
		if resp, body := r.get("/api/sessions"); resp.StatusCode != 401 || !bytes.Contains(body, []byte("a token is required")) {
			t.Errorf("no token: %d %s", resp.StatusCode, body)
		}
	})
	t.Run("a refusal for scope states its fix once", func(t *testing.T) {
		resp, body := r.send("POST", "/mcp", []byte(`{}`), bearer(r.issue(tally.ScopeRead))...)
		if want := `"this token's scope is read: POST /mcp needs one made with tally token create --scope write"`; resp.StatusCode != 403 || !bytes.Contains(body, []byte(want)) {
			t.Errorf("%d %s, want %s", resp.StatusCode, body, want)
		}
	})
}

func scopeOf(tok, read, write, push string) string {
	switch tok {
	case read:
		return "read"
	case write:
		return "write"
	case push:
		return "push"
	}
	return "unknown"
}

// The page's token form posts the token once; the cookie it gets back
// carries it on every later request, the event stream included.
func TestLogin_formSetsTheCookie(t *testing.T) {
	r := tokenRig(t)
	read := r.issue(tally.ScopeRead)
	if resp, _ := r.send("POST", "/api/login", []byte(`{"token":"tly_nope"}`)); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d", resp.StatusCode)
	}
	resp, body := r.send("POST", "/api/login", []byte(`{"token":" `+read+` "}`))
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"scope":"read"`)) {
		t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].MaxAge <= 0 || cookies[0].SameSite != http.SameSiteLaxMode {
		t.Fatalf("cookie %+v: want one HttpOnly, lasting, SameSite=Lax", cookies)
	}
	cookie := cookies[0].Name + "=" + cookies[0].Value
	if resp, _ := r.get("/api/sessions", "Cookie", cookie); resp.StatusCode != 200 {
		t.Errorf("with the cookie: %d", resp.StatusCode)
	}
	c := dialSSE(t, r.addr(), "Cookie: "+cookie)
	snapshotOf(t, c.mustNext(t))
	if resp, _ := r.send("POST", "/api/tasks/x/approve", nil, "Cookie", cookie); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a read token's cookie approving a plan: %d, want 403", resp.StatusCode)
	}
}

// send is do with a body.
func (r *rig) send(method, path string, body []byte, hdr ...string) (*http.Response, []byte) {
	r.tb.Helper()
	req, err := http.NewRequest(method, r.http.URL+path, bytes.NewReader(body))
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
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.tb.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	return resp, out.Bytes()
}

func decodeAck(t *testing.T, body []byte) tally.PushAck {
	t.Helper()
	var ack tally.PushAck
	if err := json.Unmarshal(body, &ack); err != nil {
		t.Fatalf("ack %s: %v", body, err)
	}
	return ack
}
