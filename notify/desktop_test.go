package notify

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// standIn puts a notify-send first on PATH that records each call's
// arguments, one per line, then a line "--end--".
func standIn(t *testing.T) (record string) {
	t.Helper()
	dir := t.TempDir()
	record = filepath.Join(dir, "calls")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '" + record + "'\necho --end-- >> '" + record + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return record
}

func TestDesktop_notifySend(t *testing.T) {
	record := standIn(t)
	d, err := NewDesktop(DesktopOptions{LookPath: exec.LookPath})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name() != "desktop notify-send" {
		t.Errorf("Name = %q", d.Name())
	}
	n, _ := newNotifier(t, Options{Burst: -1}, d)
	s := sess("s1")
	s.Title = "Fix <b>login</b> & more"
	n.Publish(Update{Session: s, At: after(time.Second), Flags: flags(tally.FlagNeedsInput, after(time.Second))})
	eventually(t, "notify-send runs", func() bool { return n.Stats().Sinks[0].Sent == 1 })
	n.Publish(Update{Session: sess("s2"), At: after(2 * time.Second), Flags: flags(tally.FlagFinished, after(2*time.Second)), Total: 2, Done: 2})
	n.Close()

	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var calls [][]string
	for _, call := range strings.SplitAfter(string(b), "--end--\n") {
		if call != "" {
			calls = append(calls, strings.Split(strings.TrimSuffix(call, "\n--end--\n"), "\n"))
		}
	}
	want := [][]string{
		{"--app-name=Tally", "--urgency=critical", "--", "claude needs your input",
			"claude · tally · Fix &lt;b&gt;login&lt;/b&gt; &amp; more: needs your input"},
		{"--app-name=Tally", "--urgency=normal", "--", "claude finished: all 2 items complete",
			"claude · tally · Session s2: finished: all 2 items complete"},
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("notify-send calls:\n%q\nwant\n%q", calls, want)
	}
}

func TestDesktop_aFailingNotifySendIsCountedNotRetried(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte("#!/bin/sh\necho 'no daemon' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	d, err := NewDesktop(DesktopOptions{LookPath: exec.LookPath})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := newNotifier(t, Options{Burst: -1}, d)
	n.Publish(needsInput("s"))
	eventually(t, "notify-send fails", func() bool { return n.Stats().Sinks[0].Failed == 1 })
	n.Close()
	if st := n.Stats().Sinks[0]; st.Retried != 0 || !strings.Contains(st.LastError, "no daemon") {
		t.Errorf("stats = %+v, want no retry and the daemon's complaint", st)
	}
}

// lockedBuffer is a terminal writer the sink writes from its goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestDesktop_terminalWhenThereIsNoNotifySend(t *testing.T) {
	notFound := func(string) (string, error) { return "", errors.New("not found") }
	if _, err := NewDesktop(DesktopOptions{LookPath: notFound}); err == nil {
		t.Error("a desktop sink with neither notify-send nor a terminal")
	}
	var term lockedBuffer
	d, err := NewDesktop(DesktopOptions{LookPath: notFound, Terminal: &term})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := newNotifier(t, Options{Burst: -1}, d)
	s := sess("s1")
	// ESC and BEL would end the sequence; U+009B is the one-character CSI;
	// a lone byte 0x9b is not UTF-8 and becomes U+FFFD.
	s.Title = "evil\x1b]0;pwned\a\u009b31m\x9b"
	n.Publish(Update{Session: s, At: after(time.Second), Flags: flags(tally.FlagStalled, after(time.Second))})
	n.Close()
	want := "\x1b]9;claude has stalled: no output while working: claude · tally · evil]0;pwned31m\ufffd: has stalled: no output while working\a"
	if got := term.String(); got != want {
		t.Errorf("terminal got %q\nwant %q", got, want)
	}
}

func TestTerminalEscape(t *testing.T) {
	for _, tc := range []struct {
		e           Escape
		title, body string
		want        string
	}{
		{EscapeOSC9, "claude needs your input", "line one\nline two", "\x1b]9;claude needs your input: line one / line two\a"},
		{EscapeOSC777, "a;b", "c;d", "\x1b]777;notify;a,b;c,d\a"},
		{EscapeOSC9, "bell\a", "esc\x1b\\ del\x7f", "\x1b]9;bell: esc\\ del\a"},
	} {
		if got := TerminalEscape(tc.e, tc.title, tc.body); got != tc.want {
			t.Errorf("TerminalEscape(%v, %q, %q) = %q, want %q", tc.e, tc.title, tc.body, got, tc.want)
		}
	}
}

// FuzzTerminalEscape: whatever an agent put in a title, the sequence has
// one ESC and one BEL, where they belong, and no other control character.
func FuzzTerminalEscape(f *testing.F) {
	f.Add("title", "body", false)
	f.Add("\x1b]0;x\a", "\x9c\x9b;\n", true)
	f.Fuzz(func(t *testing.T, title, body string, osc777 bool) {
		e := EscapeOSC9
		if osc777 {
			e = EscapeOSC777
		}
		s := TerminalEscape(e, title, body)
		if !strings.HasPrefix(s, "\x1b]") || !strings.HasSuffix(s, "\a") {
			t.Fatalf("not one sequence: %q", s)
		}
		inner := s[2 : len(s)-1]
		for _, r := range inner {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("control %U inside: %q", r, s)
			}
		}
		if osc777 && strings.Count(inner, ";") != 3 {
			t.Fatalf("OSC 777 with %d fields: %q", strings.Count(inner, ";")+1, s)
		}
	})
}
