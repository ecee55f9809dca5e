package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A URL's credentials are never printed, whatever prints it: a webhook
// URL too malformed to use, a receiver that echoes the path (the token)
// it was posted to, the server push ships to.
func TestURLsNeverShowTheirCredentials(t *testing.T) {
	noDesktop(t)
	t.Run("a malformed webhook URL in the settings", func(t *testing.T) {
		file := "[[notify.webhook]]\nurl = \"https://ana:pa%zzword@hooks.example.com/services/T0/SECRETPATH\"\n"
		code, out, errOut := run(t, nil, configHome(t, file), "config")
		if code == ExitOK {
			t.Fatalf("a malformed URL was taken: %s", out)
		}
		for _, secret := range []string{"pa%zzword", "ana", "SECRETPATH"} {
			if strings.Contains(out+errOut, secret) {
				t.Errorf("shows %q: %s%s", secret, out, errOut)
			}
		}
	})
	t.Run("config --test with a receiver that echoes its path", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "no webhook at "+r.URL.RequestURI(), http.StatusNotFound)
		}))
		defer srv.Close()
		hook := srv.URL + "/services/T0/B1/TOKENPATH?key=QUERYKEY"
		code, _, errOut := run(t, nil, configHome(t, ""), "config", "--test", "--notify-webhook", hook)
		if code == ExitOK || !strings.Contains(errOut, "HTTP 404") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, secret := range []string{"TOKENPATH", "QUERYKEY"} {
			if strings.Contains(errOut, secret) {
				t.Errorf("shows %q: %s", secret, errOut)
			}
		}
	})
	t.Run("push --server with a user and password", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":"wrong token"}`, http.StatusUnauthorized)
		}))
		defer srv.Close()
		server := strings.Replace(srv.URL, "http://", "http://ana:PUSHPASSWORD@", 1)
		home, _, _ := planHome(t, 6) // a session to push
		env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "CLAUDE_CONFIG_DIR": home}
		code, out, errOut := runBounded(t, newStore(t), env, "", "push", "--server", server, "--token", "tly_x", "--machine", "m")
		if code == ExitOK || !strings.Contains(errOut, "refuses the token") {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
		if strings.Contains(out+errOut, "PUSHPASSWORD") || strings.Contains(out+errOut, "ana:") {
			t.Errorf("shows the server's credentials: %s%s", out, errOut)
		}
	})
}

// A webhook that redirects to another host is not followed: the payload
// (and the URL's token) never reach a host the settings did not name. A
// redirect on the webhook's own host is followed.
func TestWebhook_redirectToAnotherHostIsNotFollowed(t *testing.T) {
	noDesktop(t)
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	var moved atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			// 127.0.0.1 and localhost: another host name, the same machine.
			http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/x", http.StatusTemporaryRedirect)
		case "/moved":
			http.Redirect(w, r, "/here", http.StatusPermanentRedirect)
		case "/here":
			moved.Add(1)
		}
	}))
	defer srv.Close()
	code, _, errOut := run(t, nil, configHome(t, ""), "config", "--test", "--notify-webhook", srv.URL+"/away")
	if code == ExitOK || elsewhere.Load() != 0 || !strings.Contains(errOut, "another host") {
		t.Fatalf("exit %d, %d requests reached the other host: %s", code, elsewhere.Load(), errOut)
	}
	code, _, errOut = run(t, nil, configHome(t, ""), "config", "--test", "--notify-webhook", srv.URL+"/moved")
	if code != ExitOK || moved.Load() != 1 {
		t.Fatalf("a redirect on the same host: exit %d, %d arrived: %s", code, moved.Load(), errOut)
	}
}

// A notification a live command could not deliver (the receiver refused
// it) is written to Tally's log, naming the sink, not its URL's secrets:
// a board or a terminal UI is no place for it, and it must not pass
// unsaid.
func TestNotify_aFailedDeliveryIsLogged(t *testing.T) {
	var asked atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Error(w, "gone: "+r.URL.Path, http.StatusGone)
	}))
	defer hook.Close()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	settings := "[notify]\nevents = [\"step_blocked\"]\ndesktop = false\nburst_window = \"0s\"\n\n" +
		"[[notify.webhook]]\nurl = \"" + hook.URL + "/services/SECRETHOOK\"\nformat = \"json\"\n"
	if err := os.WriteFile(cfg, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	home, project, log := planHome(t, 1)
	f := startFollowingIn(t, home, map[string]string{"TALLY_CONFIG": cfg, "XDG_STATE_HOME": state}, "watch", "--json")
	data := bytes.ReplaceAll(must(os.ReadFile(mustGlob(t, planCapture+"/config/projects/*/*.jsonl"))),
		[]byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(project))
	writeLines(t, log, data, 6)
	logPath := filepath.Join(state, "tally", "tally.log")
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(readMaybe(logPath), "not delivered") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	f.stop()
	logged := readMaybe(logPath)
	if asked.Load() == 0 || !strings.Contains(logged, "notify json 127.0.0.1") || !strings.Contains(logged, "HTTP 410") {
		t.Fatalf("%d deliveries tried; the log reads %q", asked.Load(), logged)
	}
	if strings.Contains(logged, "SECRETHOOK") {
		t.Fatalf("the log shows the webhook's token: %q", logged)
	}
}

func readMaybe(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
