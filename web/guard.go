package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// tokenCookie keeps a browser's token: for the server's own --token a
// digest of it (the value is always a valid cookie and the secret is not
// stored in it), for a token of the store the token itself, which only
// its hash in the store can be checked against.
const tokenCookie = "tally_token"

// securityHeaders go on every response. The page loads its script and
// styles from /static and runs no inline script.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"X-Frame-Options", "DENY"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// guard sets the headers and lets a request through only if it may see
// the data: when tokens are required (see Options.RequireToken), when it
// carries a token whose scope allows what it asks (see needs); when they
// are not, when it names a loopback host. A write (any method but GET,
// HEAD and OPTIONS) must also come from this server's own origin, as the
// browser says (Sec-Fetch-Site, else Origin against Host): a page on
// another site cannot make a person's browser change a list, with or
// without a token.
func (s *Server) guard(next http.Handler) http.Handler {
	sameOrigin := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, kv := range securityHeaders {
			h.Set(kv[0], kv[1])
		}
		// A pusher is a program, not a page: it sends no Origin, and its
		// token (scope push) can do nothing a page would be tricked into.
		if err := sameOrigin.Check(r); err != nil {
			writeError(w, http.StatusForbidden, "a change must come from this server's own page, not from another site")
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBody)
		}
		// A malformed pair is dropped by URL.Query without a word, so a
		// search for "%" would silently become no search at all.
		if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
			writeError(w, http.StatusBadRequest, "the query string is malformed ("+err.Error()+"): encode % as %25")
			return
		}
		if !s.auth.required {
			if !loopbackHost(r.Host) {
				h.Set("Connection", "close") // a refused client keeps no connection
				writeError(w, http.StatusForbidden, "this server answers only to localhost without a token (start it with --token to serve other names)")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet {
			s.login(w, r, tok)
			return
		}
		need := needs(r)
		if need == needNothing {
			next.ServeHTTP(w, r)
			return
		}
		g, err := s.auth.grantOf(r)
		switch {
		case err != nil:
			s.uncheckable(w, err)
			return
		case !g.ok:
			h.Set("Connection", "close") // a refused client keeps no connection
			h.Set("WWW-Authenticate", `Bearer realm="tally"`)
			msg := "a token is required: send Authorization: Bearer TOKEN, or visit /?token=TOKEN once"
			if g.sent {
				// Not "required": one was sent, and a person looks for
				// the mistake in the wrong place.
				msg = "the token sent is not valid here (unknown, revoked, or for another server's store): ask for a new one (tally token create)"
			}
			writeError(w, http.StatusUnauthorized, msg)
			return
		case !g.allows(need):
			writeError(w, http.StatusForbidden, fmt.Sprintf("this token's scope is %s: %s %s needs one made with tally token create --scope %s",
				g.scopeName(), r.Method, r.URL.Path, need))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), grantKey{}, g)))
	})
}

// localTarget keeps a redirect on this site: a path that starts with one
// "/" stays, anything else becomes "/". Browsers read "//host/…" and
// "/\host/…" as another site's address.
func localTarget(uri string) string {
	if uri == "" || uri[0] != '/' || len(uri) > 1 && (uri[1] == '/' || uri[1] == '\\') {
		return "/"
	}
	return uri
}

// loopbackHost tells whether a Host header names this machine: localhost
// or a loopback address. A request without Host (HTTP/1.0) is not a
// browser's and passes.
func loopbackHost(host string) bool {
	if host == "" {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return loopbackName(host)
}

// loopbackName tells whether a host name or address (no port) names this
// machine: localhost, a name under .localhost, or a loopback address. A
// browser that a page on another site sends here names that site, so
// requests naming anything else are not answered without a token. (What
// serve may listen on without a token is decided on resolved addresses,
// not names.)
func loopbackName(host string) bool {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
