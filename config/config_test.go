package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestDefaultPath(t *testing.T) {
	for _, tc := range []struct {
		name, xdg, home, want string
	}{
		{"XDG_CONFIG_HOME wins", "/xdg", "/home/u", "/xdg/tally/config.toml"},
		{"unset falls back to ~/.config", "", "/home/u", "/home/u/.config/tally/config.toml"},
		{"a relative XDG_CONFIG_HOME is ignored", "rel/dir", "/home/u", "/home/u/.config/tally/config.toml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DefaultPath(tc.xdg, tc.home); got != tc.want {
				t.Errorf("DefaultPath(%q, %q) = %q, want %q", tc.xdg, tc.home, got, tc.want)
			}
		})
	}
}

func TestLoad_missingFileIsDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Found() || c.Path() != path {
		t.Errorf("Found() = %v, Path() = %q; want false, %q", c.Found(), c.Path(), path)
	}
	if !reflect.DeepEqual(c.Detect, Default().Detect) || !reflect.DeepEqual(c.Notify, Default().Notify) {
		t.Errorf("settings differ from the defaults: %+v", c)
	}
}

func TestLoad_fileOverDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	const file = `
[detect]
stalled_after = "10m"

[notify]
events = ["needs_input"]
desktop = false

[[notify.webhook]]
url = "https://hooks.slack.com/services/T0/B0/secret"

[[notify.webhook]]
url = "https://api.telegram.org/bot123:abc/sendMessage"
format = "telegram"
chat_id = "-1001234"
max_per_minute = 2
`
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Detect.StalledAfter = Duration{10 * time.Minute}
	want.Notify.Events = []string{"needs_input"}
	want.Notify.Desktop = false
	want.Notify.Webhooks = []Webhook{
		{URL: "https://hooks.slack.com/services/T0/B0/secret"},
		{URL: "https://api.telegram.org/bot123:abc/sendMessage", Format: "telegram", ChatID: "-1001234", MaxPerMinute: 2},
	}
	if !c.Found() {
		t.Error("Found() = false for a file that exists")
	}
	if !reflect.DeepEqual(c.Detect, want.Detect) || !reflect.DeepEqual(c.Notify, want.Notify) {
		t.Errorf("got\n%+v\n%+v\nwant\n%+v\n%+v", c.Detect, c.Notify, want.Detect, want.Notify)
	}
	for key, src := range map[string]Source{
		"detect.stalled_after":     SourceFile,
		"detect.loop_repeats":      SourceDefault,
		"notify.events":            SourceFile,
		"notify.desktop":           SourceFile,
		"notify.max_per_minute":    SourceDefault,
		"notify.webhook":           SourceFile,
		"notify.webhook[2]":        SourceFile,
		"detect.no_progress_calls": SourceDefault,
	} {
		if got := c.Source(key); got != src {
			t.Errorf("Source(%q) = %v, want %v", key, got, src)
		}
	}
}

func TestParse_aListInTheFileReplacesTheDefaultList(t *testing.T) {
	c, err := Parse("config.toml", []byte("[notify]\nevents = [\"stalled\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Notify.Events, []string{"stalled"}) {
		t.Errorf("events = %q, want only stalled", c.Notify.Events)
	}
}

func TestParse_zeroTurnsADetectorOff(t *testing.T) {
	c, err := Parse("config.toml", []byte("[detect]\nstalled_after = \"0s\"\nloop_repeats = 0\nno_progress_calls = 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Detect != (Detect{}) {
		t.Errorf("detect = %+v, want all zero", c.Detect)
	}
}

func TestParse_errors(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"unknown keys are each reported with file:line:col",
			"[detect]\nstalled_afer = \"10m\"\n\n[hooks]\nremind_aftr = 3\n",
			[]string{"config.toml:2:1: unknown key detect.stalled_afer", "config.toml:5:1: unknown key hooks.remind_aftr"}},
		{"a stop guard that never refuses is refused",
			"[hooks]\nstop_blocks = 0\n",
			[]string{"hooks.stop_blocks: want 1 or more, not 0"}},
		{"a permission request never waits past the agent's own timeout of the hook",
			"[hooks]\napproval_wait = \"20m\"\n",
			[]string{"hooks.approval_wait: want a duration above 0 and at most 9m50s"}},
		{"a board address that would put a token in every notification is refused",
			"[notify]\nboard = \"https://tally.example/?token=tly_x\"\n",
			[]string{"notify.board: want the board's http(s) address, with no user, query or fragment"}},
		{"a negative reminder count is refused",
			"[hooks]\nremind_after = -1\n",
			[]string{"hooks.remind_after: want 0 (off) or more, not -1"}},
		{"an unknown section is reported",
			"[alerts]\non = true\n",
			[]string{"config.toml:1:2: unknown key alerts"}},
		{"a wrong type names the key and what it wants",
			"[detect]\nloop_repeats = \"four\"\n",
			[]string{"config.toml:2:16: detect.loop_repeats: want a whole number, not a TOML string"}},
		{"a duration written as a number names the key",
			"[notify]\nsettle = 120\n",
			[]string{"notify.settle: want a duration such as \"5m\", not a TOML integer"}},
		{"a duration that does not parse names the key",
			"[detect]\nstalled_after = \"5 minutes\"\n",
			[]string{"config.toml:2:17: detect.stalled_after: want a duration such as \"5m\" or \"90s\", not \"5 minutes\""}},
		{"a negative duration is refused",
			"[notify]\nburst_window = \"-1s\"\n",
			[]string{"notify.burst_window: want a duration of 0 or more"}},
		{"a loop of one call is no loop",
			"[detect]\nloop_repeats = 1\n",
			[]string{"detect.loop_repeats: want 0 (off) or 2 or more, not 1"}},
		{"a negative count is refused",
			"[detect]\nno_progress_calls = -3\n",
			[]string{"detect.no_progress_calls: want 0 (off) or more, not -3"}},
		{"a webhook needs a url",
			"[[notify.webhook]]\nformat = \"slack\"\n",
			[]string{"notify.webhook[1].url: missing"}},
		{"a webhook url must be http(s), and is not echoed whole",
			"[[notify.webhook]]\nurl = \"https://ok.example/x\"\n[[notify.webhook]]\nurl = \"ftp://files.example/token123\"\n",
			[]string{"notify.webhook[2].url: want an http:// or https:// URL with a host, not \"ftp://files.example/…\""}},
		{"a chat id written as a number asks for quotes",
			"[[notify.webhook]]\nurl = \"https://api.telegram.org/bot1:x/sendMessage\"\nchat_id = -1001\n",
			[]string{"config.toml:3:11: notify.webhook.chat_id: want a quoted string, not a TOML integer"}},
		{"a section written as a value",
			"detect = 3\n",
			[]string{"config.toml:1:10: detect: want a table, not a TOML integer"}},
		{"broken syntax says where",
			"[detect\nloop_repeats = 3\n",
			[]string{"config.toml:1:8: expected ']' to close table name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tc.file))
			if err == nil {
				t.Fatal("no error")
			}
			if tally.ErrorCode(err) != tally.CodeInvalid {
				t.Errorf("code = %v, want invalid", tally.ErrorCode(err))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "token123") {
				t.Errorf("error %q shows the URL's secret", err)
			}
		})
	}
}

func TestLoad_overlongFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, bytes.Repeat([]byte("# padding\n"), MaxFileSize/10+1), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), "not a settings file") {
		t.Errorf("err = %v, want a refusal", err)
	}
}

func TestLoad_unreadableIsUnavailable(t *testing.T) {
	dir := t.TempDir() // a directory where the file should be
	_, err := Load(dir)
	if err == nil || tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Errorf("err = %v (%v), want unavailable", err, tally.ErrorCode(err))
	}
}

func TestConfig_Set(t *testing.T) {
	c := Default()
	for key, value := range map[string]string{
		"detect.stalled_after": "90s",
		"detect.loop_repeats":  "6",
		"notify.desktop":       "false",
		"notify.events":        "stalled, looping",
	} {
		if err := c.Set(key, value); err != nil {
			t.Fatalf("Set(%q, %q): %v", key, value, err)
		}
		if c.Source(key) != SourceFlag {
			t.Errorf("Source(%q) = %v, want flag", key, c.Source(key))
		}
	}
	if c.Detect.StalledAfter.Duration != 90*time.Second || c.Detect.LoopRepeats != 6 || c.Notify.Desktop ||
		!reflect.DeepEqual(c.Notify.Events, []string{"stalled", "looping"}) {
		t.Errorf("got %+v %+v", c.Detect, c.Notify)
	}
	for _, tc := range []struct{ key, value, want string }{
		{"detect.stall", "1m", "detect.stall: not a setting"},
		{"detect", "1m", "detect: not a setting"},
		{"notify.webhook", "https://x.example", "notify.webhook: cannot be set by a flag"},
		{"detect.loop_repeats", "many", `detect.loop_repeats: want a whole number, not "many"`},
		{"detect.loop_repeats", "1", "detect.loop_repeats: want 0 (off) or 2 or more"},
		{"notify.desktop", "yes please", `notify.desktop: want true or false`},
		{"notify.settle", "soon", `notify.settle: want a duration`},
	} {
		err := Default().Set(tc.key, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%q, %q) = %v, want %q", tc.key, tc.value, err, tc.want)
		}
	}
}

func TestConfig_AddWebhook(t *testing.T) {
	c := Default()
	for _, spec := range []string{
		"https://hooks.slack.com/services/T/B/X",
		"json=https://example.test/hook?a=b",
	} {
		if err := c.AddWebhook(spec); err != nil {
			t.Fatal(err)
		}
	}
	want := []Webhook{
		{URL: "https://hooks.slack.com/services/T/B/X"},
		{URL: "https://example.test/hook?a=b", Format: "json"},
	}
	if !reflect.DeepEqual(c.Notify.Webhooks, want) {
		t.Errorf("webhooks = %+v, want %+v", c.Notify.Webhooks, want)
	}
	if c.Source("notify.webhook[1]") != SourceFlag {
		t.Errorf("a flag's webhook has source %v", c.Source("notify.webhook[1]"))
	}
	for _, bad := range []string{"", "hooks.slack.com/x", "slack=", "Slack=https://x.example"} {
		if err := Default().AddWebhook(bad); err == nil {
			t.Errorf("AddWebhook(%q) accepted", bad)
		}
	}
}

// effective is a config with a value from every layer.
func effective(t *testing.T) *Config {
	t.Helper()
	c, err := Parse("/home/u/.config/tally/config.toml", []byte(`
[detect]
loop_repeats = 5

[[notify.webhook]]
url = "https://hooks.slack.com/services/T0/B0/secret"
max_per_minute = 1

[[plans.project]]
path = "/home/u/src/api"
folder = "planning"
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("notify.settle", "5m"); err != nil {
		t.Fatal(err)
	}
	if err := c.AddWebhook("telegram=https://api.telegram.org/bot123:abc/sendMessage?chat_id=42"); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConfig_Write_saysWhereEachValueCameFrom(t *testing.T) {
	var b strings.Builder
	if err := effective(t).Write(&b, false); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	golden(t, "effective", got)
	for _, secret := range []string{"secret", "bot123", "chat_id=42"} {
		if strings.Contains(got, secret) {
			t.Errorf("output shows %q without --reveal", secret)
		}
	}
}

func TestConfig_Write_revealedOutputReadsBackTheSame(t *testing.T) {
	c := effective(t)
	var b bytes.Buffer
	if err := c.Write(&b, true); err != nil {
		t.Fatal(err)
	}
	back, err := Parse("printed", b.Bytes())
	if err != nil {
		t.Fatalf("printed settings do not parse: %v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(back.Detect, c.Detect) || !reflect.DeepEqual(back.Notify, c.Notify) {
		t.Errorf("read back\n%+v\n%+v\nwant\n%+v\n%+v", back.Detect, back.Notify, c.Detect, c.Notify)
	}
}

func TestDuration_String(t *testing.T) {
	for d, want := range map[time.Duration]string{
		5 * time.Minute:         "5m",
		90 * time.Second:        "1m30s",
		2 * time.Hour:           "2h",
		0:                       "0s",
		1500 * time.Millisecond: "1.5s",
	} {
		if got := (Duration{d}).String(); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// A project's plan folder is its own when the settings name one, else the
// one folder every project uses; a folder that would leave the project,
// or a project named by a relative path, is an error naming the key.
func TestConfig_Plans(t *testing.T) {
	c, err := Parse("config.toml", []byte("[plans]\nfolder = \"plans\"\n\n[[plans.project]]\npath = \"/src/api/\"\nfolder = \"docs/tasks\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Plans.PlanFolder("/src/api"); got != "/src/api/docs/tasks" {
		t.Errorf("api's plan folder %s", got)
	}
	if got := c.Plans.PlanFolder("/src/web"); got != "/src/web/plans" {
		t.Errorf("web's plan folder %s", got)
	}
	if got := Default().Plans.PlanFolder("/src/web"); got != "/src/web/docs/por" {
		t.Errorf("default plan folder %s", got)
	}
	for _, tc := range []struct{ file, want string }{
		{"[plans]\nfolder = \"../elsewhere\"\n", "plans.folder: want a folder inside the project"},
		{"[plans]\nfolder = \"/abs\"\n", "plans.folder: want a folder inside the project"},
		{"[plans]\nfolder = \"\"\n", "plans.folder: want a folder inside the project"},
		{"[[plans.project]]\npath = \"src/api\"\nfolder = \"docs/por\"\n", "plans.project[1].path: want the project's absolute path"},
		{"[[plans.project]]\npath = \"/src/api\"\n", "plans.project[1].folder: want a folder inside the project"},
	} {
		_, err := Parse("config.toml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.file, err, tc.want)
		}
	}
}
