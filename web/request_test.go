package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/web"
)

// ask stores an open request of session, asked at the rig's clock.
func (r *rig) ask(id, session string) tally.Request {
	r.tb.Helper()
	now := r.clock.Now()
	q := tally.Request{ID: id, Session: session, Agent: claude.Agent, Tool: "Bash", Summary: "echo x > proof.txt",
		Always: true, AskedAt: now, ExpiresAt: now.Add(2 * time.Minute)}
	if err := r.st.AskRequest(context.Background(), q); err != nil {
		r.tb.Fatal(err)
	}
	return q
}

func (r *rig) postJSON(path, body string, hdr ...string) (*http.Response, []byte) {
	r.tb.Helper()
	req, err := http.NewRequest(http.MethodPost, r.http.URL+path, bytes.NewReader([]byte(body)))
	if err != nil {
		r.tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
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
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func requestRig(t *testing.T, edit func(*web.Options)) *rig {
	return newRig(t, func(o *web.Options) {
		o.Requests = o.Store.(tally.RequestKeeper)
		if edit != nil {
			edit(o)
		}
	})
}

// A decision names its request's one-time id and its session, is taken
// once from the board's own page, and says who took it and from where;
// a replay, an expired request, another session's request and another
// site's page are refused.
func TestAPI_decideRequest(t *testing.T) {
	r := requestRig(t, nil)
	r.ask("r1", tasksID)
	r.ask("r2", todowriteID)
	page := []string{"Sec-Fetch-Site", "same-origin", "Origin", r.http.URL}

	if resp, body := r.postJSON("/api/requests/r1", `{"session":"`+tasksID+`","verdict":"allow"}`, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another site's page: %d %s", resp.StatusCode, body)
	}
	if resp, body := r.postJSON("/api/requests/r1", `{"session":"`+todowriteID+`","verdict":"allow"}`, page...); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a decision naming another session: %d %s", resp.StatusCode, body)
	}
	if resp, body := r.postJSON("/api/requests/r1", `{"session":"`+tasksID+`","verdict":"yes please"}`, page...); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("an unknown verdict: %d %s", resp.StatusCode, body)
	}
	resp, body := r.postJSON("/api/requests/r1", `{"session":"`+tasksID+`","verdict":"deny","message":"<b>use /tmp</b>"}`, page...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the page's decision: %d %s", resp.StatusCode, body)
	}
	var got tally.RequestView
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Verdict != tally.VerdictDeny || got.Message != "<b>use /tmp</b>" || got.By != "the local board" || got.From != "board, 127.0.0.1" {
		t.Errorf("decided %+v", got)
	}
	if bytes.Contains(body, []byte("<b>")) {
		t.Errorf("the answer holds markup unescaped: %s", body)
	}
	if resp, body := r.postJSON("/api/requests/r1", `{"session":"`+tasksID+`","verdict":"allow"}`, page...); resp.StatusCode != http.StatusConflict {
		t.Errorf("a replayed decision: %d %s", resp.StatusCode, body)
	}
	if rec := r.record(tasksID); len(rec.Requests) != 1 || rec.Requests[0].Verdict != tally.VerdictDeny {
		t.Errorf("the record shows %+v", rec.Requests)
	}
	r.clock.Set(r.clock.Now().Add(3 * time.Minute))
	if resp, body := r.postJSON("/api/requests/r2", `{"session":"`+todowriteID+`","verdict":"allow"}`, page...); resp.StatusCode != http.StatusConflict {
		t.Errorf("an expired request: %d %s", resp.StatusCode, body)
	}
	if resp, body := r.postJSON("/api/requests/nope", `{"session":"`+todowriteID+`","verdict":"allow"}`, page...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown request: %d %s", resp.StatusCode, body)
	}
}

// A read token sees the request but cannot decide it; a write token
// decides, named by its token.
func TestAPI_decideRequest_needsTheWriteScope(t *testing.T) {
	r := requestRig(t, func(o *web.Options) {
		o.RequireToken = true
		o.Tokens = o.Store.(tally.TokenKeeper)
	})
	r.ask("r1", tasksID)
	read, write := r.issue(tally.ScopeRead), r.issue(tally.ScopeWrite)
	bearer := func(tok string) []string {
		return []string{"Authorization", "Bearer " + tok, "Host", "tally.example.org"}
	}
	if resp, body := r.postJSON("/api/requests/r1", `{"session":"`+tasksID+`","verdict":"allow"}`, bearer(read)...); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a read token decided: %d %s", resp.StatusCode, body)
	}
	resp, body := r.postJSON("/api/requests/r1", `{"session":"`+tasksID+`","verdict":"always"}`, bearer(write)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a write token: %d %s", resp.StatusCode, body)
	}
	var got tally.RequestView
	_ = json.Unmarshal(body, &got)
	if got.Verdict != tally.VerdictAlways || got.By != "write" {
		t.Errorf("decided %+v", got)
	}
}
