package e2e

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// withCredentials is db with a password in its user part and credentials
// in its query, as a team's TALLY_DB may be written (the test server
// trusts local connections, so they open nothing here).
func withCredentials(t *testing.T, db string) string {
	t.Helper()
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "userinfo-s3cret")
	q := u.Query()
	q.Set("password", "query-hunter2")
	u.RawQuery = q.Encode()
	return u.String()
}

// With its database out of reach, a replica answers a client that has
// not authenticated (any token, a made-up login) without a word of the
// store — not its URL, host, user, database or password — and logs the
// failure, its credentials hidden, on its own side.
func TestServe_anUnauthenticatedClientLearnsNothingOfTheStore(t *testing.T) {
	if !pgtest.Required() {
		pgtest.Shared(t)
	}
	db := pgtest.DB(t)
	tokenFor(t, db, "read") // a store holding a token requires one
	dbURL := withCredentials(t, db)
	r := servetest.Start(t, tallyBin, dbURL)

	// The database stops taking connections, and the replica's are cut.
	name := strings.TrimPrefix(mustParse(t, db).Path, "/")
	admin, err := pgx.Connect(context.Background(), strings.Replace(db, "/"+name+"?", "/postgres?", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	for _, sql := range []string{
		`ALTER DATABASE "` + name + `" ALLOW_CONNECTIONS false`,
		`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '` + name + `'`,
	} {
		if _, err := admin.Exec(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), `ALTER DATABASE "`+name+`" ALLOW_CONNECTIONS true`) //nolint:errcheck
	})

	madeUp := "tly_0123456789abcdef_" + strings.Repeat("A", 43)
	requests := []*http.Request{
		newRequest(t, "GET", r.URL+"api/sessions", "", "Authorization", "Bearer "+madeUp),
		newRequest(t, "POST", r.URL+"api/login", `{"token":"`+madeUp+`"}`, "Content-Type", "application/json"),
		newRequest(t, "GET", r.URL+"?token="+madeUp, ""),
	}
	secrets := []string{"postgres", "userinfo-s3cret", "query-hunter2", name, pgtest.Superuser, "host=", "5432", "SQLSTATE", "connect"}
	for _, req := range requests {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s %s: %d %s, want 503", req.Method, req.URL.Path, resp.StatusCode, body)
		}
		for _, s := range secrets {
			if strings.Contains(strings.ToLower(string(body)), strings.ToLower(s)) {
				t.Errorf("%s %s tells a client with no valid token %q: %s", req.Method, req.URL.Path, s, body)
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(r.Stderr(), "checking a token") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	logged := r.Stderr()
	if !strings.Contains(logged, "checking a token") || !strings.Contains(logged, name) {
		t.Errorf("the replica's log does not name the failure:\n%s", logged)
	}
	for _, s := range []string{"userinfo-s3cret", "query-hunter2"} {
		if strings.Contains(logged, s) {
			t.Errorf("the replica's log shows the credential %q:\n%s", s, logged)
		}
	}
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newRequest(t *testing.T, method, target, body string, hdr ...string) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return req
}
