package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/token"
)

// needNothing is what the page and its files need: they hold no data, so
// a browser without a token can load the page that asks for one.
const needNothing tally.Scope = 0

// needs is the scope a request needs: push for POST /api/push and GET
// /api/push/decisions, write for
// anything under /mcp (a tool call may change a list) and for every other
// write, read for the rest of the API; nothing for the page, its files and
// the login that asks for a token.
func needs(r *http.Request) tally.Scope {
	p := r.URL.Path
	switch {
	case p == "/api/push" || p == "/api/push/decisions":
		return tally.ScopePush
	case p == "/api/login" && r.Method == http.MethodPost:
		return needNothing
	case p == "/mcp" || strings.HasPrefix(p, "/mcp/"):
		return tally.ScopeWrite
	case r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions:
		return tally.ScopeWrite
	case p == "/" || strings.HasPrefix(p, "/static/"):
		return needNothing
	}
	return tally.ScopeRead
}

// grant is what a request's token allows.
type grant struct {
	ok bool
	// sent: the request carried a token, valid or not.
	sent bool
	// all: the server's own --token, which allows everything.
	all   bool
	scope tally.Scope
	// token is the store's token, with the origin a push token speaks
	// for (zero for the server's own).
	token tally.Token
}

type grantKey struct{}

// grantFrom is the grant guard let r through with; ok is false when the
// server requires no token.
func grantFrom(r *http.Request) (grant, bool) {
	g, ok := r.Context().Value(grantKey{}).(grant)
	return g, ok
}

func (g grant) allows(need tally.Scope) bool { return g.all || g.scope.Allows(need) }

func (g grant) scopeName() string {
	if g.all {
		return "every scope"
	}
	return g.scope.String()
}

// tokenCacheTTL is how long a token found in the store is taken as valid
// without asking the store again: a revoked token stops working within it.
const tokenCacheTTL = 10 * time.Second

// maxCachedTokens bounds the cache; past it, it starts afresh.
const maxCachedTokens = 1024

// authority checks requests' tokens: the server's own --token (every
// scope), and the tokens the store keeps (tally token create).
type authority struct {
	// required: every request but the page's needs a token.
	required bool
	// legacy is the digest of --token, "" without one.
	legacy string
	keeper tally.TokenKeeper
	now    func() time.Time

	mu    sync.Mutex
	cache map[[32]byte]cachedToken
}

type cachedToken struct {
	token tally.Token
	until time.Time
}

func newAuthority(o *Options) *authority {
	a := &authority{required: o.Token != "" || o.RequireToken, keeper: o.Tokens, now: o.Now, cache: map[[32]byte]cachedToken{}}
	if o.Token != "" {
		a.legacy = digest(o.Token)
	}
	return a
}

// grantOf reads the request's token, as a bearer header or the cookie.
func (a *authority) grantOf(r *http.Request) (grant, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return grant{sent: true}, nil
		}
		g, err := a.check(r, strings.TrimSpace(tok), false)
		g.sent = true
		return g, err
	}
	c, err := r.Cookie(tokenCookie)
	if err != nil {
		return grant{}, nil
	}
	g, err := a.check(r, c.Value, true)
	g.sent = true
	return g, err
}

// check finds what secret allows. From a cookie, the server's own token
// comes as its digest.
func (a *authority) check(r *http.Request, secret string, cookie bool) (grant, error) {
	if a.legacy != "" {
		d := digest(secret)
		if cookie {
			d = secret
		}
		if same(d, a.legacy) {
			return grant{ok: true, all: true}, nil
		}
	}
	if a.keeper == nil {
		return grant{}, nil
	}
	if _, ok := token.ID(secret); !ok {
		return grant{}, nil
	}
	key := sha256.Sum256([]byte(secret))
	now := a.now()
	a.mu.Lock()
	c, hit := a.cache[key]
	a.mu.Unlock()
	if hit && now.Before(c.until) {
		return grant{ok: true, scope: c.token.Scope, token: c.token}, nil
	}
	t, err := token.Check(r.Context(), a.keeper, secret)
	if tally.ErrorCode(err) == tally.CodeNotFound {
		a.mu.Lock()
		delete(a.cache, key)
		a.mu.Unlock()
		return grant{}, nil
	}
	if err != nil {
		return grant{}, err
	}
	a.mu.Lock()
	if len(a.cache) >= maxCachedTokens {
		clear(a.cache)
	}
	a.cache[key] = cachedToken{token: t, until: now.Add(tokenCacheTTL)}
	a.mu.Unlock()
	return grant{ok: true, scope: t.Scope, token: t}, nil
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// uncheckable answers a request whose token could not be checked (the
// store is out of reach). The client has not authenticated, so it learns
// nothing of the store — not its kind, host, user or database, nor the
// driver's words; the server's log gets all of it.
func (s *Server) uncheckable(w http.ResponseWriter, err error) {
	if s.o.ErrorLog != nil {
		s.o.ErrorLog.Printf("checking a token: %v", err)
	}
	w.Header().Set("Retry-After", "5")
	writeError(w, http.StatusServiceUnavailable, "the tokens cannot be checked now; try again shortly")
}

// cookieAge keeps a browser's token for half a year.
const cookieAge = 180 * 24 * time.Hour

// setTokenCookie keeps secret in the browser: what the cookie holds for
// it (see tokenCookie), HttpOnly so no script reads it.
func (s *Server) setTokenCookie(w http.ResponseWriter, r *http.Request, secret string, g grant) {
	value := secret
	if g.all {
		value = s.auth.legacy
	}
	http.SetCookie(w, &http.Cookie{
		Name: tokenCookie, Value: value, Path: "/", MaxAge: int(cookieAge / time.Second),
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
}

// login answers /…?token=: a right token becomes a cookie, and the browser
// is sent to the same address without it, so the token stays out of its
// history.
func (s *Server) login(w http.ResponseWriter, r *http.Request, tok string) {
	g, err := s.auth.check(r, tok, false)
	if err != nil {
		s.uncheckable(w, err)
		return
	}
	if !g.ok {
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusUnauthorized, "wrong token")
		return
	}
	s.setTokenCookie(w, r, tok, g)
	q := r.URL.Query()
	q.Del("token")
	u := *r.URL
	u.RawQuery = q.Encode()
	http.Redirect(w, r, localTarget(u.RequestURI()), http.StatusSeeOther)
}

// loginBody is POST /api/login: the page's token form.
type loginBody struct {
	Token string `json:"token"`
}

// loginAnswer says what the token allows.
type loginAnswer struct {
	Scope string `json:"scope"`
}

// maxLoginBody bounds a login request: a token is short.
const maxLoginBody = 4 << 10

// loginAPI is POST /api/login: the page sends the token a person typed;
// a right one becomes the cookie every later request, the event stream
// included, carries.
func (s *Server) loginAPI(w http.ResponseWriter, r *http.Request) {
	var b loginBody
	if err := json.NewDecoder(io.LimitReader(r.Body, maxLoginBody)).Decode(&b); err != nil {
		writeError(w, http.StatusBadRequest, `send {"token": "…"}`)
		return
	}
	g, err := s.auth.check(r, strings.TrimSpace(b.Token), false)
	if err != nil {
		s.uncheckable(w, err)
		return
	}
	if !g.ok {
		writeError(w, http.StatusUnauthorized, "wrong token")
		return
	}
	s.setTokenCookie(w, r, strings.TrimSpace(b.Token), g)
	writeJSON(w, http.StatusOK, loginAnswer{Scope: g.scopeName()})
}
