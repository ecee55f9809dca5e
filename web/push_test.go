package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/web"
)

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A batch pushed gzipped lands with its origin, shows in the listing
// filtered by machine and user, and is acknowledged; sent again it is a
// repeat that writes nothing.
func TestPush_landsOnceWithItsOrigin(t *testing.T) {
	r := tokenRig(t)
	tok := r.issueFor(tally.ScopePush, "ana-laptop", "ana")
	rec := r.record(tasksID)
	rec.ID = "pushed-" + rec.ID
	b := tally.PushBatch{Machine: "ana-laptop", User: "ana", Stream: "st1", From: 0, To: 7, Lines: 42, Sessions: []tally.Record{rec}}
	js, _ := json.Marshal(b)
	body := gz(t, js)
	hdr := []string{"Authorization", "Bearer " + tok, "Content-Encoding", "gzip", "Content-Type", "application/json"}
	resp, out := r.send("POST", "/api/push", body, hdr...)
	if resp.StatusCode != 200 {
		t.Fatalf("push: %d %s", resp.StatusCode, out)
	}
	if ack := decodeAck(t, out); ack.Acked != 7 || ack.Applied != 1 || ack.Repeat {
		t.Fatalf("ack %+v", ack)
	}
	read := r.issue(tally.ScopeRead)
	_, list := r.get("/api/sessions?machine=ana-laptop&user=ana", "Authorization", "Bearer "+read)
	var got struct{ Sessions []tally.Session }
	if err := json.Unmarshal(list, &got); err != nil || len(got.Sessions) != 1 {
		t.Fatalf("sessions of ana-laptop: %s", list)
	}
	if s := got.Sessions[0]; s.ID != rec.ID || s.Machine != "ana-laptop" || s.User != "ana" || len(s.Items) == 0 {
		t.Errorf("the pushed session: %+v", s)
	}
	if _, list := r.get("/api/sessions?machine=bo-desk", "Authorization", "Bearer "+read); bytes.Contains(list, []byte(rec.ID)) {
		t.Errorf("another machine's filter shows it")
	}
	resp, out = r.send("POST", "/api/push", body, hdr...)
	if ack := decodeAck(t, out); resp.StatusCode != 200 || !ack.Repeat || ack.Applied != 0 {
		t.Errorf("the batch again: %d %+v, want a repeat", resp.StatusCode, ack)
	}
	st := r.srv.Stats().Push
	if st.Batches != 2 || st.Records != 1 || st.Lines != 42 || st.Repeats != 1 {
		t.Errorf("push stats %+v", st)
	}
}

// What a push may not be: each refused with its status, nothing written.
func TestPush_refusals(t *testing.T) {
	r := tokenRig(t)
	tok := r.issue(tally.ScopePush)
	good, _ := json.Marshal(tally.PushBatch{Machine: "m", Stream: "s", To: 1})
	bomb := gz(t, append(append([]byte(`{"machine":"m","stream":"s","to":1,"sessions":[],"x":"`), bytes.Repeat([]byte("A"), web.MaxPushBatch)...), `"}`...))
	for _, tc := range []struct {
		name     string
		body     []byte
		encoding string
		want     int
	}{
		{"a zip bomb: small sent, too large inflated", bomb, "gzip", http.StatusRequestEntityTooLarge},
		{"too large as sent", bytes.Repeat([]byte(" "), web.MaxPushBody+1), "", http.StatusRequestEntityTooLarge},
		{"an encoding it does not take", good, "br", http.StatusUnsupportedMediaType},
		{"gzip that is not", good, "gzip", http.StatusBadRequest},
		{"not JSON", []byte("{"), "", http.StatusBadRequest},
		{"no machine", []byte(`{"stream":"s","to":1}`), "", http.StatusBadRequest},
		{"marks backwards", []byte(`{"machine":"m","stream":"s","from":5,"to":1}`), "", http.StatusBadRequest},
		{"two batches in one body", append(append([]byte{}, good...), good...), "", http.StatusBadRequest},
		{"more sessions than a batch may hold", tooMany(t), "gzip", http.StatusRequestEntityTooLarge},
	} {
		if tc.name == "a zip bomb: small sent, too large inflated" && len(tc.body) > web.MaxPushBody {
			t.Fatalf("the bomb is %d bytes compressed: not small", len(tc.body))
		}
		resp, out := r.send("POST", "/api/push", tc.body, "Authorization", "Bearer "+tok, "Content-Encoding", tc.encoding)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, out, tc.want)
		}
	}
	if st := r.srv.Stats().Push; st.Batches != 0 {
		t.Errorf("refused pushes were applied: %+v", st)
	}
}

// tooMany is a batch of 50,000 small sessions, gzipped: small on the wire
// and within the inflated bound, but more than a batch may hold.
func tooMany(t *testing.T) []byte {
	b := tally.PushBatch{Machine: "m", Stream: "s", To: 1}
	for i := range 50_000 {
		b.Sessions = append(b.Sessions, tally.Record{ID: "s" + strconv.Itoa(i)})
	}
	js, _ := json.Marshal(b)
	return gz(t, js)
}

// A push token speaks for the machine (and user) it was made for: Bo's
// token pushing a batch that names Ana's laptop is refused (403), and
// Ana's sessions stay as they were; pushing as its own machine works.
func TestPush_aTokenPushesOnlyForItsOrigin(t *testing.T) {
	r := tokenRig(t)
	ana, bo := r.issueFor(tally.ScopePush, "ana-laptop", "ana"), r.issueFor(tally.ScopePush, "bo-desk", "")
	boAsAna := r.issueFor(tally.ScopePush, "bo-desk", "bo")
	rec := r.record(tasksID)
	rec.ID, rec.Title = "ana-session", "Ana's work"
	send := func(tok string, b tally.PushBatch) (int, string) {
		js, _ := json.Marshal(b)
		resp, out := r.send("POST", "/api/push", js, "Authorization", "Bearer "+tok)
		return resp.StatusCode, string(out)
	}
	if code, out := send(ana, tally.PushBatch{Machine: "ana-laptop", User: "ana", Stream: "a", To: 1, Sessions: []tally.Record{rec}}); code != 200 {
		t.Fatalf("Ana's own push: %d %s", code, out)
	}
	forged := rec
	forged.Title = "rewritten by Bo"
	for _, tc := range []struct {
		name, tok string
		b         tally.PushBatch
		want      int
	}{
		{"Bo's token as Ana's laptop", bo, tally.PushBatch{Machine: "ana-laptop", User: "ana", Stream: "a", From: 1, To: 2, Sessions: []tally.Record{forged}}, 403},
		{"Bo's token as Ana's laptop, on a stream of its own", bo, tally.PushBatch{Machine: "ana-laptop", User: "bo", Stream: "b", To: 1, Sessions: []tally.Record{forged}}, 403},
		{"a token bound to user bo, as user ana", boAsAna, tally.PushBatch{Machine: "bo-desk", User: "ana", Stream: "c", To: 1}, 403},
		{"Bo's token as Bo's desk", bo, tally.PushBatch{Machine: "bo-desk", User: "bo", Stream: "d", To: 1}, 200},
	} {
		code, out := send(tc.tok, tc.b)
		if code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, code, out, tc.want)
		}
		if code == 403 && !strings.Contains(out, "pushes for") {
			t.Errorf("%s: refused without saying which origin the token pushes for: %s", tc.name, out)
		}
	}
	if got := r.record("ana-session"); got.Title != "Ana's work" || got.Machine != "ana-laptop" {
		t.Fatalf("Ana's session after Bo's pushes: %q from %q", got.Title, got.Machine)
	}
}

// FuzzDecodePush: whatever the body, the decoder returns a batch that
// passes the stores' checks or an error, and never reads past its bound.
func FuzzDecodePush(f *testing.F) {
	good, _ := json.Marshal(tally.PushBatch{Machine: "m", User: "u", Stream: "s", From: 1, To: 2,
		Sessions: []tally.Record{{ID: "a", Agent: claude.Agent, Lists: map[string][]tally.Item{"": {{Title: "x"}}}}}})
	f.Add(good, false)
	f.Add(gz(f, good), true)
	f.Add([]byte(`{"machine":"m","stream":"s","to":1,"sessions":[{"id":""}]}`), false)
	f.Add(gz(f, bytes.Repeat([]byte("{"), 1<<16)), true)
	f.Fuzz(func(t *testing.T, body []byte, zipped bool) {
		enc := ""
		if zipped {
			enc = "gzip"
		}
		src := &countingReader{r: bytes.NewReader(body)}
		b, err := web.DecodePush(src, enc)
		if err != nil {
			if errors.Is(err, web.ErrPushTooLarge) && src.n <= web.MaxPushBatch && !zipped {
				t.Fatalf("too large after %d bytes", src.n)
			}
			return
		}
		if cerr := tally.CheckPush(&b); cerr != nil {
			t.Fatalf("decoded a batch the stores refuse: %v", cerr)
		}
		if strings.TrimSpace(b.Machine) == "" && b.Machine == "" {
			t.Fatal("a batch without a machine passed")
		}
	})
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
