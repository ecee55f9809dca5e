package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hookservice"
	"github.com/tallyhq/tally/web"
)

const (
	defaultServeAddr = "127.0.0.1:7600"
	// shutdownGrace bounds how long Ctrl-C waits for requests in flight.
	shutdownGrace = 5 * time.Second
)

type serveOptions struct {
	*app
	Addr     string
	Token    string
	Open     bool
	settings settingFlags
}

func (a *app) serveCommand() *cobra.Command {
	o := &serveOptions{app: a}
	addr := a.env.Getenv("TALLY_ADDR")
	if addr == "" {
		addr = defaultServeAddr
	}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the live dashboard, a JSON API and an event stream",
		Long: `Index new history, then follow the agents' logs and serve, until Ctrl-C:

  /                     the dashboard (a board of live session cards)
  /api/sessions         sessions as JSON (agent=, project=, activity=, active=1, q=, limit=)
  /api/sessions/ID      one session with its lists (id or unique prefix)
  /api/events           Server-Sent Events: snapshot, session_updated, session_removed,
                        plan_updated, plan_removed
  /api/plans            the plans (docs/por) of the listed sessions' projects
  /api/stats            counters: clients, events sent, drops, diagnostics
  POST /api/tasks/LIST/approve
                        approve a plan-mode list's plan, as 'tally tasks approve'
                        does (the dashboard's Approve plan button); writes are
                        accepted only from the dashboard's own origin
  POST /api/hook/AGENT  an agent's hook call, answered as 'tally hook AGENT'
                        answers it (for hooks that post to a URL, such as
                        Claude Code's "http" hooks; ?guard-stop=1 for the
                        stop guard); a write, token and origin rules alike
  /mcp                  tally mcp's task tools over streamable HTTP
  POST /api/push        batches of sessions from tally push (scope push)
  GET /api/push/decisions
                        decisions taken here on the pushed requests a
                        machine's tally push names (scope push, that
                        machine's only; a long poll, ?wait= up to 25 s)

Sessions that need a person (waiting for input, stalled, looping, making no
progress, blocked, finished) are notified once each, as they happen: to
--notify-webhook URLs, to the desktop, and as the settings file says (see
'tally config'). Nothing is notified for what the logs held when serve
started.

It listens on 127.0.0.1:7600 (--addr, env TALLY_ADDR). Listening on an
address that is not loopback (a name counts by the addresses it resolves
to) needs tokens: the store's (tally token create, each with a scope:
read, write or push), or --token (env TALLY_TOKEN, which keeps it out of
the process list), which allows everything. A store holding a token when
serve starts makes every request need one: "Authorization: Bearer TOKEN",
or the cookie a browser keeps once the page's form (or a visit to
/?token=TOKEN) took it.

With --db postgres://… (env TALLY_DB) several serve processes share one
PostgreSQL database behind a load balancer: every change reaches every
one's clients, and the task lists at /mcp are shared.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd.Context(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Addr, "addr", addr, "host:port to listen on (env TALLY_ADDR)")
	f.StringVar(&o.Token, "token", "", "require this token of every request (env TALLY_TOKEN); needed off loopback")
	f.BoolVar(&o.Open, "open", false, "open the dashboard in a browser")
	addSettingFlags(cmd, &o.settings)
	return cmd
}

func runServe(ctx context.Context, o *serveOptions) error {
	if o.Token == "" {
		o.Token = o.env.Getenv("TALLY_TOKEN")
	}
	cfg, err := o.useSettings(o.settings)
	if err != nil {
		return err
	}
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	// A store that holds tokens makes every request need one, from start
	// to end of this run, whatever is revoked meanwhile.
	list, err := st.Tokens(ctx)
	if err != nil {
		return err
	}
	requireToken := len(list) > 0
	bind, err := bindAddress(ctx, o.env.Resolver, o.Addr, o.Token != "" || requireToken)
	if err != nil {
		return err
	}
	// Listen before the scan: a port in use is reported at once, and
	// browsers that connect meanwhile wait in the backlog.
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return &listenError{addr: o.Addr, err: err}
	}
	defer ln.Close()

	l, err := o.newLive(ctx, st, liveOptions{bar: true, notify: notifySessions, skipped: o.printSkipped, board: "http://" + ln.Addr().String() + "/"})
	if err != nil {
		return err
	}
	if err := l.CatchUp(ctx); err != nil {
		return err
	}
	if ctx.Err() != nil {
		l.closeNews()
		return nil
	}

	wo := web.Options{Indexer: l.ix, Store: st, Token: o.Token, Tokens: st, RequireToken: requireToken, Ingest: st, Now: o.env.Now, Home: o.env.Home, Diagnostics: l.diags.count,
		ErrorLog: log.New(o.env.Err, "tally serve: ", log.LstdFlags),
		Lists:    st, Requests: st, Extra: mcpExtra(st, &o.env), Plans: l.plans,
		Hooks: o.hookService(hookOptionsOf(cfg.Hooks), cfg, 0, func(context.Context) (hookservice.Store, error) { return st, nil })}
	srv := web.New(wo)
	hs := srv.HTTPServer()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	stopped := make(chan error, 3)
	for _, run := range []func() error{
		func() error { return srv.Run(runCtx) },
		func() error { return l.Run(runCtx) },
		func() error {
			if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	} {
		wg.Add(1)
		go func() { defer wg.Done(); stopped <- run() }()
	}

	page := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(o.env.Out, "tally: serving %s (Ctrl-C to stop)\n", page)
	if o.Token != "" || requireToken {
		fmt.Fprintf(o.env.Out, "tally: requests need a token; a browser asks for it once (or visit %s?token=TOKEN)\n", page)
	}
	if o.Open {
		openBrowser(browserOpener, page, o.Token, o.env.Err)
	}
	o.nowLive()

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-stopped:
	}
	// Streams end with the hub, then requests in flight finish, then the
	// indexer stops between commits; the store closes last (deferred).
	cancel()
	sctx, scancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer scancel()
	shutErr := hs.Shutdown(sctx)
	wg.Wait()
	close(stopped)
	for err := range stopped {
		runErr = errors.Join(runErr, err)
	}
	return errors.Join(runErr, shutErr)
}

// bindAddress is the address serve listens on: addr's host resolved to
// literal addresses, so that what is checked is exactly what is listened
// on (a name is never resolved twice). Without tokens every address the
// host resolves to must be a loopback address: the sessions name projects,
// prompts and plans, and a name such as evil.localhost may resolve
// anywhere. A name with several addresses is listened on at one of them,
// IPv4 first, as net.Listen does.
func bindAddress(ctx context.Context, r Resolver, addr string, tokens bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", tally.Errorf(tally.CodeInvalid, "serve", "--addr %q: want host:port, such as %s", addr, defaultServeAddr)
	}
	// A port that cannot be is a mistake in the command line, not an
	// address this machine refuses.
	if _, err := net.LookupPort("tcp", port); err != nil {
		return "", tally.Errorf(tally.CodeInvalid, "serve", "--addr %q: %q is not a port (a number from 0 to 65535)", addr, port)
	}
	if host == "" {
		if !tokens {
			return "", refuseBind(addr+" (every interface)", "")
		}
		return addr, nil
	}
	addrs, err := resolve(ctx, r, host)
	if err != nil {
		return "", &listenError{addr: addr, err: err}
	}
	if !tokens {
		for _, a := range addrs {
			if !a.IsLoopback() {
				why := fmt.Sprintf(" (%s is %s, not a loopback address)", host, a)
				if a.String() == host {
					why = fmt.Sprintf(" (%s is not a loopback address)", host)
				}
				return "", refuseBind(addr, why)
			}
		}
	}
	pick := addrs[0]
	for _, a := range addrs {
		if a.Is4() {
			pick = a
			break
		}
	}
	return net.JoinHostPort(pick.String(), port), nil
}

// resolve returns host's addresses, unmapped and without zones: a literal
// address is its own.
func resolve(ctx context.Context, r Resolver, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a.Unmap()}, nil
	}
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = fmt.Errorf("%s has no address", host)
	}
	for i := range addrs {
		addrs[i] = addrs[i].Unmap().WithZone("")
	}
	return addrs, err
}

func refuseBind(shown, why string) error {
	return tally.Errorf(tally.CodeInvalid, "serve",
		"refusing to listen on %s%s without a token: anyone who can reach it could read your agents' sessions; create tokens (tally token create --scope read), pass --token (or set TALLY_TOKEN), or listen on %s", shown, why, defaultServeAddr)
}

// browserOpener is the system's command that opens a page in the
// browser.
var browserOpener = map[bool]string{true: "open", false: "xdg-open"}[runtime.GOOS == "darwin"]

// openBrowser opens the page with opener. When it cannot (no opener, or
// no browser for it to open: xdg-open exits non-zero), it says so on
// errOut, with the address to open by hand (without the token, which is
// asked for there).
func openBrowser(opener, page, token string, errOut io.Writer) {
	target := page
	if token != "" {
		target += "?token=" + url.QueryEscape(token)
	}
	failed := func(err error) {
		fmt.Fprintf(errOut, "tally: could not open a browser (%s: %v); open %s yourself\n", opener, err, page)
	}
	cmd := exec.Command(opener, target)
	if err := cmd.Start(); err != nil {
		failed(err)
		return
	}
	go func() {
		if err := cmd.Wait(); err != nil {
			failed(err)
		}
	}()
}
