package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

func TestServe_refusesOtherAddressesWithoutToken(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":7600", "192.168.1.5:7600", "example.com:7600", "[::ffff:10.0.0.1]:7600"} {
		var out, errOut syncBuffer
		code := Run(context.Background(), testEnv(newStore(t), &out, &errOut, nil), []string{"serve", "--addr", addr})
		if code != ExitUsage || !strings.Contains(errOut.String(), "without a token") {
			t.Errorf("serve --addr %s: exit %d, stderr %q", addr, code, errOut.String())
		}
	}
	var out, errOut syncBuffer
	if code := Run(context.Background(), testEnv(newStore(t), &out, &errOut, nil), []string{"serve", "--addr", "nonsense"}); code != ExitUsage {
		t.Errorf("serve --addr nonsense: exit %d", code)
	}
}

// TestServe_aBadPortIsAUsageErrorAndALiteralAddressIsNotSaidTwice: a port
// out of range is a mistake in the command line (2), not an address this
// machine refuses (6); "10.1.2.3 is 10.1.2.3" said nothing.
func TestServe_aBadPortIsAUsageErrorAndALiteralAddressIsNotSaidTwice(t *testing.T) {
	var out, errOut syncBuffer
	code := Run(context.Background(), testEnv(newStore(t), &out, &errOut, nil), []string{"serve", "--addr", "127.0.0.1:99999"})
	if code != ExitUsage || !strings.Contains(errOut.String(), `"99999" is not a port`) {
		t.Errorf("--addr 127.0.0.1:99999: exit %d, stderr %q", code, errOut.String())
	}
	errOut = syncBuffer{}
	Run(context.Background(), testEnv(newStore(t), &out, &errOut, nil), []string{"serve", "--addr", "10.1.2.3:7600"})
	if got := errOut.String(); !strings.Contains(got, "(10.1.2.3 is not a loopback address)") {
		t.Errorf("--addr 10.1.2.3:7600: %q", got)
	}
}

// TestServe_openSaysSoWhenNoBrowserCanBeOpened: --open without a browser
// said nothing, and the user waited for a window.
func TestServe_openSaysSoWhenNoBrowserCanBeOpened(t *testing.T) {
	dir := t.TempDir()
	noBrowser := filepath.Join(dir, "xdg-open")
	if err := os.WriteFile(noBrowser, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opener := range []string{filepath.Join(dir, "missing"), noBrowser} {
		var errOut syncBuffer
		openBrowser(opener, "http://127.0.0.1:7600/", "tly_secret", &errOut)
		deadline := time.Now().Add(5 * time.Second)
		for errOut.String() == "" && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		got := errOut.String()
		if !strings.HasPrefix(got, "tally: could not open a browser (") || !strings.HasSuffix(got, "open http://127.0.0.1:7600/ yourself\n") || strings.Contains(got, "tly_secret") {
			t.Errorf("%s: %q", opener, got)
		}
	}
}

// The rule is on the addresses a name resolves to, not on the name: a
// name under .localhost may resolve anywhere.
func TestServe_noTokenRuleIsOnTheResolvedAddress(t *testing.T) {
	for addr, shown := range map[string]string{
		"evil.localhost:0": "192.0.2.7",
		"two.localhost:0":  "10.1.2.3", // every address must be loopback
	} {
		var out, errOut syncBuffer
		code := Run(context.Background(), testEnv(newStore(t), &out, &errOut, nil), []string{"serve", "--addr", addr})
		if code != ExitUsage || !strings.Contains(errOut.String(), "without a token") || !strings.Contains(errOut.String(), shown) {
			t.Errorf("serve --addr %s: exit %d, stderr %q; want a refusal naming %s", addr, code, errOut.String(), shown)
		}
	}
	t.Run("a name that resolves to loopback is listened on at the address checked", func(t *testing.T) {
		if page := serve(t, nil, "--addr", "here.localhost:0"); !strings.HasPrefix(page, "http://127.0.0.1:") {
			t.Errorf("serving %s, want the checked 127.0.0.1", page)
		}
	})
	t.Run("the name is resolved once: a rebinding answer after the check is never listened on", func(t *testing.T) {
		if page := serve(t, nil, "--addr", "rebind.localhost:0"); !strings.HasPrefix(page, "http://127.0.0.1:") {
			t.Errorf("serving %s, want the checked 127.0.0.1", page)
		}
	})
	t.Run("a name that does not resolve is a listen error", func(t *testing.T) {
		var out, errOut syncBuffer
		code := Run(context.Background(), testEnv(newStore(t), &out, &errOut, nil), []string{"serve", "--addr", "nowhere.localhost:0"})
		if code != ExitListen || !strings.Contains(errOut.String(), "no such host") {
			t.Errorf("exit %d, stderr %q", code, errOut.String())
		}
	})
}

var servingRe = regexp.MustCompile(`serving (http://\S+/)`)

// serve runs `tally serve args…` over the captured tasks session until the
// test ends, and returns the page's address.
func serve(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	var out, errOut syncBuffer
	if env == nil {
		env = map[string]string{}
	}
	env["CLAUDE_CONFIG_DIR"] = filepath.Join(captured, "tasks/config")
	e := testEnv(newStore(t), &out, &errOut, env)
	e.Now = func() time.Time { return captureTime }
	a := &app{env: e, following: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan ExitCode, 1)
	go func() { done <- a.run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != ExitOK {
				t.Errorf("exit %d after Ctrl-C: %s", code, errOut.String())
			}
		case <-time.After(10 * time.Second):
			t.Error("did not stop after Ctrl-C")
		}
	})
	select {
	case <-a.following:
	case code := <-done:
		t.Fatalf("exit %d before serving: %s", code, errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("never started serving")
	}
	m := servingRe.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no address in %q", out.String())
	}
	return m[1]
}

func get(t *testing.T, url string, hdr ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

func TestServe_sessions(t *testing.T) {
	// A stream still open must not hold up Ctrl-C: it is closed only
	// after serve's cleanup (cleanups run last first) has checked the exit.
	var stream io.Closer = io.NopCloser(nil)
	t.Cleanup(func() { stream.Close() })
	page := serve(t, nil)
	resp, err := http.Get(page + "api/events")
	if err != nil {
		t.Fatal(err)
	}
	stream = resp.Body
	if first, err := io.ReadAll(io.LimitReader(resp.Body, int64(len("retry: 2000")))); err != nil || string(first) != "retry: 2000" {
		t.Fatalf("stream starts %q, %v", first, err)
	}
	code, body := get(t, page+"api/sessions")
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	var l struct{ Sessions []tally.Session }
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Sessions) != 1 || l.Sessions[0].ID != "ff833579-73c0-4d20-92ee-931086a0b9c3" {
		t.Fatalf("sessions %s", body)
	}
	// Each task as the task files Claude Code wrote at exit record it.
	got := map[string]string{}
	for _, it := range l.Sessions[0].Items {
		got[it.ID] = it.Status.String()
	}
	for _, task := range agentTasks(t, "tasks") {
		if got[task.ID] != task.Status {
			t.Errorf("task %s %q: served %q, the agent recorded %q", task.ID, task.Subject, got[task.ID], task.Status)
		}
	}
	if code, _ := get(t, page); code != http.StatusOK {
		t.Errorf("page: %d", code)
	}
}

func TestServe_token(t *testing.T) {
	page := serve(t, map[string]string{"TALLY_TOKEN": "t0ken"})
	if code, _ := get(t, page+"api/sessions"); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", code)
	}
	if code, _ := get(t, page+"api/sessions", "Authorization", "Bearer t0ken"); code != http.StatusOK {
		t.Errorf("with the token: %d", code)
	}
}
