package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/web"
)

type listBody struct {
	Sessions    []tally.Session `json:"sessions"`
	LastEventID string          `json:"lastEventId"`
	Now         time.Time       `json:"now"`
}

func (r *rig) list(t *testing.T, query string) listBody {
	t.Helper()
	resp, body := r.get("/api/sessions" + query)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", query, resp.StatusCode, body)
	}
	var l listBody
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

func ids(ss []tally.Session) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func TestAPI_sessions(t *testing.T) {
	r := newRig(t, nil)
	tasks := r.record(tasksID)
	all := r.list(t, "")
	if len(all.Sessions) != 2 {
		t.Fatalf("got %v, want both captured sessions", ids(all.Sessions))
	}
	if a, b := all.Sessions[0].LastActivity, all.Sessions[1].LastActivity; a.Before(b) {
		t.Errorf("not newest first: %v before %v", a, b)
	}
	if all.LastEventID != r.srv.Stats().LastEventID || !all.Now.Equal(r.clock.Now()) {
		t.Errorf("lastEventId %q now %v", all.LastEventID, all.Now)
	}
	// The title is the agent's own (the transcript's first prompt or its
	// summary); search finds it by any case of a part of it.
	word := strings.ToUpper(strings.Fields(tasks.Title)[0])
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"?agent=claude&limit=1", ids(all.Sessions[:1])},
		{"?agent=codex", []string{}},
		{"?project=/cc/tasks/", []string{tasksID}}, // the cwd the transcript records
		{"?q=" + word + "&project=tasks", []string{tasksID}},
		{"?q=FF833579", []string{tasksID}},
		{"?activity=ended", []string{}},
		{"?active=1&q=bfd476", []string{todowriteID}},
	} {
		got := ids(r.list(t, tc.query).Sessions)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: got %v, want %v", tc.query, got, tc.want)
		}
	}

	t.Run("ended by the clock", func(t *testing.T) {
		r.clock.Set(tasks.LastActivity.Add(tally.EndedAfter + time.Minute))
		defer r.clock.Set(tasks.LastActivity.Add(time.Minute))
		if got := r.list(t, "?active=1").Sessions; len(got) != 0 {
			t.Errorf("active after 31 minutes of silence: %v", ids(got))
		}
		if got := r.list(t, "?activity=ended").Sessions; len(got) != 2 {
			t.Errorf("ended: %v", ids(got))
		}
	})
	for _, bad := range []string{"?activity=asleep", "?limit=0", "?limit=x", "?active=maybe"} {
		resp, body := r.get("/api/sessions" + bad)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"error"`) {
			t.Errorf("%s: %d %s", bad, resp.StatusCode, body)
		}
	}
	t.Run("a malformed query is refused, not dropped into a search for everything", func(t *testing.T) {
		for _, bad := range []string{"?q=%", "?q=%zz", "?agent=claude&q=50%", "?limit=1&%=x"} {
			resp, body := r.get("/api/sessions" + bad)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "malformed") {
				t.Errorf("%s: %d %.200s", bad, resp.StatusCode, body)
			}
		}
		if got := r.list(t, "?q=50%25").Sessions; len(got) != 0 {
			t.Errorf("q=50%%25 (a search for \"50%%\") matched %v", ids(got))
		}
	})
}

// The page ages activity between events (working turns idle, anything
// ends) by the thresholds the server sends, so that the rule lives in Go
// alone: a snapshot and a session list both carry tally.DeriveActivity's.
func TestAPI_thresholdsComeFromTheServer(t *testing.T) {
	r := newRig(t, nil)
	want := map[string]int64{
		"idleAfterMs":  tally.IdleAfter.Milliseconds(),
		"endedAfterMs": tally.EndedAfter.Milliseconds(),
	}
	check := func(what string, data []byte) {
		t.Helper()
		var d struct {
			Thresholds map[string]int64 `json:"thresholds"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !maps.Equal(d.Thresholds, want) {
			t.Errorf("%s thresholds %v, want %v", what, d.Thresholds, want)
		}
	}
	_, body := r.get("/api/sessions")
	check("/api/sessions", body)
	check("the snapshot", []byte(dialSSE(t, r.addr()).mustNext(t).Data))
}

func TestAPI_session(t *testing.T) {
	r := newRig(t, nil)
	resp, body := r.get("/api/sessions/" + tasksID[:8])
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var s tally.Session
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatal(err)
	}
	if s.ID != tasksID || s.Schema != tally.SchemaVersion || len(s.Items) == 0 {
		t.Errorf("got %s schema %d with %d items", s.ID, s.Schema, len(s.Items))
	}
	resp, body = r.get("/api/sessions/00000000-nope")
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("unknown id: %d %s", resp.StatusCode, body)
	}
	if resp, _ := r.get("/api/nothing"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown endpoint: %d", resp.StatusCode)
	}
}

func TestAPI_stats(t *testing.T) {
	r := newRig(t, func(o *web.Options) { o.Diagnostics = func() int64 { return 7 } })
	c := dialSSE(t, r.addr())
	c.mustNext(t)
	r.publish(r.retitled(tasksID, "counted"))
	c.mustNext(t)
	// The server counts an event once its write returned, which may be
	// just after the client read it.
	var st web.Stats
	var body []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		_, body = r.get("/api/stats")
		if err := json.Unmarshal(body, &st); err != nil {
			t.Fatal(err)
		}
		if st.EventsSent > 0 {
			break
		}
	}
	if st.Clients != 1 || st.EventsSent != 1 || st.Snapshots != 1 || st.Diagnostics != 7 || st.Drops != 0 {
		t.Errorf("stats %s", body)
	}
}

func TestGuard_headers(t *testing.T) {
	r := newRig(t, nil)
	for _, path := range []string{"/", "/api/sessions", "/static/app.js"} {
		resp, _ := r.get(path)
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
			strings.Contains(csp, "unsafe-inline") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
	}
	if resp, body := r.get("/"); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<html") {
		t.Errorf("/: %d", resp.StatusCode)
	}
	if resp, _ := r.get("/static/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/static/ lists files: %d", resp.StatusCode)
	}
}

// Without a token, only names of this machine are answered: a page on
// another site that rebinds its name to 127.0.0.1 gets nothing.
func TestGuard_loopbackHostOnly(t *testing.T) {
	r := newRig(t, nil)
	for host, want := range map[string]int{
		"localhost:7600":     http.StatusOK,
		"127.0.0.1:7600":     http.StatusOK,
		"[::1]:7600":         http.StatusOK,
		"evil.example:7600":  http.StatusForbidden,
		"192.168.1.10:7600":  http.StatusForbidden,
		"localhost.evil.com": http.StatusForbidden,
	} {
		if resp, _ := r.get("/api/sessions", "Host", host); resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

func TestGuard_token(t *testing.T) {
	const token = "s3cret token"
	r := newRig(t, func(o *web.Options) {
		o.Token = token
		o.Extra = map[string]http.Handler{"/mcp": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {})}
	})
	// The page and its files hold no data: a browser without a token gets
	// the page that asks for one.
	for _, path := range []string{"/", "/static/app.js"} {
		if resp, _ := r.get(path, "Host", "tally.example.org"); resp.StatusCode != http.StatusOK {
			t.Errorf("%s without token: %d, want the page", path, resp.StatusCode)
		}
	}
	for _, path := range []string{"/api/sessions", "/api/events", "/api/stats", "/mcp"} {
		resp, _ := r.get(path)
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s without token: %d", path, resp.StatusCode)
		}
		if resp, _ := r.get(path, "Authorization", "Bearer wrong"); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s with a wrong token: %d", path, resp.StatusCode)
		}
	}
	for _, path := range []string{"/", "/api/sessions", "/static/app.js", "/mcp"} {
		if resp, _ := r.get(path, "Authorization", "Bearer "+token, "Host", "tally.example.org"); resp.StatusCode != http.StatusOK {
			t.Errorf("%s with the token: %d", path, resp.StatusCode)
		}
	}

	t.Run("a visit with ?token= sets a cookie", func(t *testing.T) {
		if resp, _ := r.get("/?token=nope"); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("wrong token in the URL: %d", resp.StatusCode)
		}
		resp, _ := r.get("/?token=s3cret%20token")
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
			t.Fatalf("login: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		cookies := resp.Cookies()
		if len(cookies) != 1 || !cookies[0].HttpOnly || strings.Contains(cookies[0].Value, "s3cret") {
			t.Fatalf("cookies %v", cookies)
		}
		cookie := cookies[0].Name + "=" + cookies[0].Value
		if resp, _ := r.get("/api/sessions", "Cookie", cookie); resp.StatusCode != http.StatusOK {
			t.Errorf("with the cookie: %d", resp.StatusCode)
		}
		c := dialSSE(t, r.addr(), "Cookie: "+cookie)
		snapshotOf(t, c.mustNext(t))
	})

	t.Run("the login redirect stays on this site", func(t *testing.T) {
		for path, want := range map[string]string{
			"/api/sessions?token=s3cret%20token&q=x": "/api/sessions?q=x",
			"//evil.com/?token=s3cret%20token":       "/",
			"//evil.com/a/b?token=s3cret%20token":    "/",
		} {
			resp, _ := r.get(path)
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
				t.Errorf("%s: %d to %q, want %q", path, resp.StatusCode, resp.Header.Get("Location"), want)
			}
		}
		// A backslash where the host would start is a host to a browser.
		conn, err := net.Dial("tcp", r.addr())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET /\\evil.com/?token=s3cret%%20token HTTP/1.1\r\nHost: %s\r\n\r\n", r.addr())
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") {
			t.Errorf("/\\evil.com/: redirected to %q", loc)
		}
	})
}
