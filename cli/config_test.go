package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noDesktop makes PATH a directory with nothing in it: no notify-send.
func noDesktop(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
}

// configHome is an XDG_CONFIG_HOME holding file as tally/config.toml ("" for
// none).
func configHome(t *testing.T, file string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if file != "" {
		if err := os.MkdirAll(filepath.Join(dir, "tally"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "tally", "config.toml"), []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"XDG_CONFIG_HOME": dir}
}

func TestRun_config_defaultsWhenThereIsNoFile(t *testing.T) {
	noDesktop(t)
	env := configHome(t, "")
	code, out, errOut := run(t, nil, env, "config")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "config-defaults", strings.ReplaceAll(out, env["XDG_CONFIG_HOME"], "$XDG_CONFIG_HOME"))
}

func TestRun_config_saysWhereEachValueCameFrom(t *testing.T) {
	noDesktop(t)
	env := configHome(t, `
[detect]
stalled_after = "10m"

[notify]
events = ["needs_input", "finished", "item_completed"]

[[notify.webhook]]
url = "https://hooks.slack.com/services/T0/B0/secret"
`)
	code, out, errOut := run(t, nil, env, "config", "--set", "detect.loop_repeats=6",
		"--notify-webhook", "discord=https://discord.com/api/webhooks/1/token")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "config-sources", strings.ReplaceAll(out, env["XDG_CONFIG_HOME"], "$XDG_CONFIG_HOME"))
	for _, secret := range []string{"secret", "token"} {
		if strings.Contains(out, secret) {
			t.Errorf("output shows %q without --reveal", secret)
		}
	}
	_, out, _ = run(t, nil, env, "config", "--reveal")
	if !strings.Contains(out, "https://hooks.slack.com/services/T0/B0/secret") {
		t.Errorf("--reveal does not show the URL:\n%s", out)
	}
}

func TestRun_config_errors(t *testing.T) {
	noDesktop(t)
	for _, tc := range []struct {
		name string
		file string
		args []string
		code ExitCode
		want string
	}{
		{"a misspelt key names the file and line", "[detect]\nstalled_afer = \"1m\"\n", nil, ExitUsage,
			"config.toml:2:1: unknown key detect.stalled_afer"},
		{"an event Tally does not have names the key", "[notify]\nevents = [\"stall\"]\n", nil, ExitUsage,
			`notify.events: unknown event "stall"`},
		{"a format Tally does not have names the webhook", "[[notify.webhook]]\nurl = \"https://x.example/h\"\nformat = \"teams\"\n", nil, ExitUsage,
			`notify.webhook[1].format: unknown webhook format "teams"`},
		{"a telegram webhook needs a chat", "[[notify.webhook]]\nurl = \"https://api.telegram.org/bot1:x/sendMessage\"\n", nil, ExitUsage,
			"notify.webhook[1]: webhook https://api.telegram.org/…: telegram needs a chat_id"},
		{"a bad --set names the key", "", []string{"--set", "detect.loop_repeats=lots"}, ExitUsage,
			`detect.loop_repeats: want a whole number, not "lots"`},
		{"--set wants KEY=VALUE", "", []string{"--set", "detect.loop_repeats"}, ExitUsage, "want KEY=VALUE"},
		{"a settings file named and missing", "", []string{"--config", "/nonexistent/tally.toml"}, ExitNotFound,
			"/nonexistent/tally.toml: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := run(t, nil, configHome(t, tc.file), append([]string{"config"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.want)
			}
		})
	}
}

func TestRun_config_TALLY_CONFIG(t *testing.T) {
	noDesktop(t)
	path := filepath.Join(t.TempDir(), "elsewhere.toml")
	if err := os.WriteFile(path, []byte("[detect]\nloop_repeats = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, nil, map[string]string{"TALLY_CONFIG": path}, "config")
	if code != ExitOK || !strings.Contains(out, "loop_repeats = 7") || !strings.Contains(out, "# file: "+path) {
		t.Errorf("exit %d, stderr %s, out:\n%s", code, errOut, out)
	}
}

// TestRun_config_testSendsToEverySink: the path from settings to sinks
// that every notifying command will use, end to end: a real receiver on
// loopback and a stand-in notify-send get the test message.
func TestRun_config_testSendsToEverySink(t *testing.T) {
	got := make(chan []byte, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
		if r.URL.Path == "/broken" {
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	record := filepath.Join(dir, "calls")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + record + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)

	code, _, errOut := run(t, nil, configHome(t, ""), "config", "--test", "--notify-webhook", srv.URL+"/hook")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var payload struct {
		Schema int
		Events []struct{ Kind, Text string }
	}
	if err := json.Unmarshal(<-got, &payload); err != nil || payload.Schema != 1 || len(payload.Events) != 1 ||
		payload.Events[0].Kind != "needs_input" || !strings.Contains(payload.Events[0].Text, "a test from 'tally config --test'") {
		t.Errorf("receiver got %+v (%v)", payload, err)
	}
	calls, err := os.ReadFile(record)
	if err != nil || !strings.Contains(string(calls), "tally needs your input") {
		t.Errorf("notify-send got %q (%v)", calls, err)
	}
	for _, line := range []string{"json 127.0.0.1", ": sent", "desktop notify-send: sent"} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr %q does not say %q", errOut, line)
		}
	}

	code, _, errOut = run(t, nil, configHome(t, ""), "config", "--test", "--notify-webhook", srv.URL+"/broken")
	<-got
	if code != ExitNotify || !strings.Contains(errOut, "HTTP 400") || !strings.Contains(errOut, "1 of 2 sinks failed") {
		t.Errorf("a refusing receiver: exit %d, stderr %q", code, errOut)
	}
}
