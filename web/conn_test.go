package web_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally/web"
)

// A client that opens hundreds of connections and leaves them idle, keeps
// them after a 401, or sends a body a byte at a time holds none of them
// for long, and an authorised request from elsewhere is still answered.
func TestServer_idleAndSlowConnectionsDoNotStarveAnAuthorisedRequest(t *testing.T) {
	const token, perClient, n = "t0ken", 16, 420
	bodyErr := make(chan error, n)
	r := newRig(t, func(o *web.Options) {
		o.Token = token
		o.MaxConnsPerClient = perClient
		o.ReadHeaderTimeout = 300 * time.Millisecond
		o.ReadTimeout = 600 * time.Millisecond
		o.IdleTimeout = 300 * time.Millisecond
		o.Extra = map[string]http.Handler{"/mcp": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, err := io.Copy(io.Discard, r.Body)
			bodyErr <- err
		})}
	})
	// The attacker's connections come from another loopback address, as
	// another machine's would.
	attacker := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		c, err := attacker.Dial("tcp", r.addr())
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
		switch i % 3 {
		case 0: // says nothing
		case 1: // asks without the token and would keep the connection
			fmt.Fprintf(c, "GET /api/sessions HTTP/1.1\r\nHost: %s\r\n\r\n", r.addr())
		case 2: // a body announced and never sent
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Length: 1000000\r\n\r\nx", r.addr(), token)
		}
	}

	resp, body := r.get("/api/sessions", "Authorization", "Bearer "+token)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("authorised request during the attack: %d %s", resp.StatusCode, body)
	}

	// Every attacker connection is closed by the server, none lasting
	// much past the longest timeout.
	var wg sync.WaitGroup
	held := make(chan int, n)
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				held <- i
			}
		}()
	}
	wg.Wait()
	close(held)
	for i := range held {
		t.Errorf("connection %d (kind %d) still open after 10 s", i, i%3)
	}
	st := r.srv.Stats()
	if st.ConnsRefused == 0 {
		t.Errorf("stats %+v: no connection refused past %d from one address", st, perClient)
	}
	close(bodyErr)
	for err := range bodyErr {
		if err == nil {
			t.Error("a body that never came was read to its end")
		}
	}
}

// A connection past the limit is told why before it is closed.
func TestServer_connectionPastTheLimitIsAnswered503(t *testing.T) {
	r := newRig(t, func(o *web.Options) { o.MaxConnsPerClient = 2 })
	for range 2 {
		c, err := net.Dial("tcp", r.addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	// The two above are counted once the server accepted them: the third
	// is refused as soon as it is.
	var resp *http.Response
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("tcp", r.addr())
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(time.Second))
		resp, err = http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third connection: %+v", resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "too many connections") {
		t.Errorf("body %s", body)
	}
}

// Past MaxStreams an event stream is refused with 503 and Retry-After, and
// a place that frees up is taken again.
func TestEvents_streamLimit(t *testing.T) {
	r := newRig(t, func(o *web.Options) { o.MaxStreams = 2 })
	a, b := dialSSE(t, r.addr()), dialSSE(t, r.addr())
	a.mustNext(t)
	b.mustNext(t)
	c := dialSSE(t, r.addr())
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c.conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "event streams") {
		t.Fatalf("third stream: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	if st := r.srv.Stats(); st.StreamsRefused != 1 || st.Clients != 2 {
		t.Errorf("stats %+v: want one refusal and two clients", st)
	}
	a.conn.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		d, err := dialSSEErr(r.addr())
		if err != nil {
			t.Fatal(err)
		}
		ev, err := d.next()
		d.conn.Close()
		if err == nil && ev.Event == "snapshot" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stream after one closed: %v", err)
		}
	}
}

// A body past MaxBody is not read into the server.
func TestServer_bodyLimit(t *testing.T) {
	got := make(chan error, 1)
	r := newRig(t, func(o *web.Options) {
		o.MaxBody = 1 << 10
		o.Extra = map[string]http.Handler{"/mcp": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, err := io.Copy(io.Discard, r.Body)
			got <- err
		})}
	})
	resp, err := http.Post(r.http.URL+"/mcp", "application/json", strings.NewReader(strings.Repeat("x", 4<<10)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var mb *http.MaxBytesError
	if err := <-got; !errors.As(err, &mb) {
		t.Errorf("reading a 4 KiB body under a 1 KiB limit: %v", err)
	}
}
