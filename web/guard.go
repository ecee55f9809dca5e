package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// tokenCookie holds a digest of the token, not the token itself, so the
// value is always a valid cookie and the secret is not stored in it.
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
// the data: with a token, when it carries it; without, when it names a
// loopback host. A write (any method but GET, HEAD and OPTIONS) must also
// come from this server's own origin, as the browser says (Sec-Fetch-Site,
// else Origin against Host): a page on another site cannot make a
// person's browser change a list, with or without a token.
func (s *Server) guard(next http.Handler) http.Handler {
	want := ""
	if s.o.Token != "" {
		want = digest(s.o.Token)
	}
	sameOrigin := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, kv := range securityHeaders {
			h.Set(kv[0], kv[1])
		}
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
		if want == "" {
			if !loopbackHost(r.Host) {
				h.Set("Connection", "close") // a refused client keeps no connection
				writeError(w, http.StatusForbidden, "this server answers only to localhost without a token (start it with --token to serve other names)")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" {
			s.login(w, r, tok, want)
			return
		}
		if !authorized(r, want) {
			h.Set("Connection", "close") // a refused client keeps no connection
			h.Set("WWW-Authenticate", `Bearer realm="tally"`)
			writeError(w, http.StatusUnauthorized, "a token is required: send Authorization: Bearer TOKEN, or visit /?token=TOKEN once")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// login answers /…?token=: a right token becomes a cookie, and the browser
// is sent to the same address without it, so the token stays out of its
// history.
func (s *Server) login(w http.ResponseWriter, r *http.Request, tok, want string) {
	if !same(digest(tok), want) {
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusUnauthorized, "wrong token")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: tokenCookie, Value: want, Path: "/",
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
	q := r.URL.Query()
	q.Del("token")
	u := *r.URL
	u.RawQuery = q.Encode()
	http.Redirect(w, r, localTarget(u.RequestURI()), http.StatusSeeOther)
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

func authorized(r *http.Request, want string) bool {
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, tok, ok := strings.Cut(a, " ")
		return ok && strings.EqualFold(scheme, "Bearer") && same(digest(strings.TrimSpace(tok)), want)
	}
	c, err := r.Cookie(tokenCookie)
	return err == nil && same(c.Value, want)
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

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
