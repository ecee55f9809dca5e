package web

import (
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the connection limits in Options.
const (
	defaultReadHeaderTimeout = 10 * time.Second
	defaultReadTimeout       = time.Minute
	defaultIdleTimeout       = time.Minute
	defaultMaxConnsPerClient = 64
	defaultMaxStreams        = 512
	defaultMaxBody           = 16 << 20
	maxHeaderBytes           = 64 << 10
	// retryAfter is what a refused client is told to wait, in seconds.
	retryAfter = 5
)

// HTTPServer is the http.Server for Handler, with the limits every
// connection gets: its request head within ReadHeaderTimeout, head and
// body within ReadTimeout, an idle keep-alive connection closed after
// IdleTimeout, and at most MaxConnsPerClient connections from one client
// address; one over that is answered 503 and closed at once, so a client
// that opens hundreds cannot use up the process's file descriptors and
// starve everyone else. Its ErrorLog is silent: clients that hang up
// mid-stream are routine, not news.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.o.ReadHeaderTimeout,
		// The deadline covers the head and the body. It does not cut an
		// event stream: once a request's body is read, net/http clears
		// the read deadline for the rest of the response.
		ReadTimeout:    s.o.ReadTimeout,
		IdleTimeout:    s.o.IdleTimeout,
		MaxHeaderBytes: maxHeaderBytes,
		ConnState:      s.conns.track,
		ErrorLog:       log.New(io.Discard, "", 0),
	}
}

// connLimit counts the open connections of each client address. It is
// fed by http.Server.ConnState, which sees every connection from accept
// to close.
type connLimit struct {
	max     int
	refused atomic.Int64

	mu   sync.Mutex
	open map[netip.Addr]int
	held map[net.Conn]netip.Addr
}

func (l *connLimit) track(c net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		ip := clientAddr(c)
		l.mu.Lock()
		if l.open[ip] >= l.max {
			l.mu.Unlock()
			l.refused.Add(1)
			refuseConn(c, "too many connections from your address (at most "+strconv.Itoa(l.max)+"); close some and try again")
			return
		}
		if l.open == nil {
			l.open = make(map[netip.Addr]int)
			l.held = make(map[net.Conn]netip.Addr)
		}
		l.open[ip]++
		l.held[c] = ip
		l.mu.Unlock()
	case http.StateClosed, http.StateHijacked:
		l.mu.Lock()
		if ip, ok := l.held[c]; ok {
			delete(l.held, c)
			if l.open[ip]--; l.open[ip] <= 0 {
				delete(l.open, ip)
			}
		}
		l.mu.Unlock()
	case http.StateActive, http.StateIdle:
	}
}

// clientAddr is the address a connection comes from; every connection
// that is not TCP counts as one client.
func clientAddr(c net.Conn) netip.Addr {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.AddrPort().Addr().Unmap()
	}
	return netip.Addr{}
}

// refuseConn answers a connection that is not served with a 503 before
// its request is read, and closes it. The answer is best effort: the
// descriptor is freed either way.
func refuseConn(c net.Conn, msg string) {
	js, _ := json.Marshal(errorBody{Error: msg}) // a struct of one string
	body := string(js) + "\n"
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"+
		"Retry-After: "+strconv.Itoa(retryAfter)+"\r\nConnection: close\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
	_ = c.Close()
}
