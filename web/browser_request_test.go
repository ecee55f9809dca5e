package web_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// An agent's permission request answered from the board: the built tally
// runs as Claude Code's PermissionRequest hook (tally setup claude
// --remote-approvals installs it) against the server's store, the request
// shows on the session's card, a click on Allow (or a denial with a
// message) reaches the waiting hook, which answers as Claude Code takes
// it. The times from the hook's start to the Allow button on the card, and
// from the click to the hook's answer, are logged (p50, p99).

// askHook starts `tally hook claude` with a PermissionRequest payload for
// session, as Claude Code would.
func (s *serveProc) askHook(t *testing.T, session, command string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	i := len(s.args) - 3 // before "serve --addr ADDR"
	args := append(append([]string{}, s.args[1:i]...), "hook", "claude", "--approval-wait", "30s")
	cmd := exec.Command(s.args[0], args...)
	cmd.Dir = s.home
	cmd.Env = dashEnv(s.home)
	cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"transcript_path":"","cwd":%q,"hook_event_name":"PermissionRequest",`+
		`"tool_name":"Bash","tool_input":{"command":%q},"permission_suggestions":[]}`, session, s.home, command))
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func stepRemoteApproval(t *testing.T, b *browser, srv *serveProc) {
	id := tasksSession
	row := cardSel(id) + ` [data-part="request"]`
	allow := row + `:not([hidden]) [data-action="request-allow"]`
	var shown, answered []time.Duration
	for i := range 8 {
		command := fmt.Sprintf("echo <b>%d</b> > proof.txt", i)
		start := time.Now()
		cmd, out := srv.askHook(t, id, command)
		b.poll(t, "the request shows on the card", `(() => { const b = document.querySelector(`+dashJSON(t, allow)+`);
			return !!b && !b.closest('[hidden]') && !b.disabled; })()`)
		shown = append(shown, time.Since(start))
		if got := b.eval(t, `document.querySelector(`+dashJSON(t, row+` [data-part="request-summary"]`)+`).textContent`); got != command {
			t.Errorf("the card shows %q, want the command as text %q", got, command)
		}
		if i == 0 {
			if b.eval(t, `String(!!document.querySelector(`+dashJSON(t, row+` b`)+`))`) != "false" {
				t.Error("the command's markup became markup on the card")
			}
			b.shot(t, "dashboard-request-1280x800.png")
		}
		clicked := time.Now()
		b.do(t, chromedp.Click(chromedp.CSS(allow)))
		if err := cmd.Wait(); err != nil {
			t.Fatalf("the hook: %v", err)
		}
		answered = append(answered, time.Since(clicked))
		if !strings.Contains(out.String(), `"behavior":"allow"`) {
			t.Fatalf("the hook answered %q, want an allow", out.String())
		}
		b.poll(t, "the card says who allowed it", `(() => { const e = document.querySelector(`+dashJSON(t, row+` [data-part="request-decided"]`)+`);
			return !!e && e.textContent.startsWith('Allowed by the local board'); })()`)
	}
	t.Logf("request on the board after the hook started: p50 %v, p99 %v (n=%d)", percentile(shown, 0.5), percentile(shown, 0.99), len(shown))
	t.Logf("decision at the hook after the click: p50 %v, p99 %v (n=%d)", percentile(answered, 0.5), percentile(answered, 0.99), len(answered))

	// A denial with a message: the form, then the hook's answer.
	cmd, out := srv.askHook(t, id, "rm -rf build")
	b.poll(t, "the request shows on the card", `!!document.querySelector(`+dashJSON(t, allow)+`)`)
	b.do(t, chromedp.Click(chromedp.CSS(row+` [data-action="request-message"]`)),
		chromedp.SendKeys(chromedp.CSS(row+` [data-part="request-input"]`), "keep the build folder"),
		chromedp.Click(chromedp.CSS(row+` [data-action="request-send"]`)))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the hook: %v", err)
	}
	if !strings.Contains(out.String(), `"behavior":"deny","message":"keep the build folder"`) {
		t.Errorf("the hook answered %q, want the denial with its message", out.String())
	}
	b.poll(t, "the card says it was denied", `(() => { const e = document.querySelector(`+dashJSON(t, row+` [data-part="request-decided"]`)+`);
		return !!e && e.textContent.includes('Denied by the local board') && e.textContent.includes('keep the build folder'); })()`)

	// A phone, opening a notification's link (?session=ID) in a tab of its
	// own: the page is an installable web app, and the link opens the
	// session's detail with the request and its buttons.
	tab, closeTab := chromedp.NewContext(b.ctx)
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844), chromedp.Navigate(srv.url+"?session="+id),
		chromedp.Poll[chromedp.Void](`document.getElementById('detail').open`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the link did not open the session's detail: %v", err)
	}
	manifest, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => { const x = new XMLHttpRequest();
		x.open('GET', document.querySelector('link[rel=manifest]').href, false); x.send();
		const m = JSON.parse(x.responseText); return m.display + ' ' + m.icons.length; })()`))
	if err != nil || manifest != "standalone 3" {
		t.Errorf("the web app manifest: %q, %v", manifest, err)
	}
	cmd, out = srv.askHook(t, id, "make release")
	detailAllow := `#detail [data-part="request"]:not([hidden]) [data-action="request-allow"]`
	if err := chromedp.Do(tab, chromedp.Poll[chromedp.Void](`(() => { const b = document.querySelector(`+dashJSON(t, detailAllow)+`);
		return !!b && !b.closest('[hidden]') && b.getBoundingClientRect().right <= 390; })()`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the detail at phone width shows no Allow button within the screen: %v", err)
	}
	b.shotOf(t, tab, "dashboard-request-390x844.png")
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(detailAllow))); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), `"behavior":"allow"`) {
		t.Errorf("the hook answered %q (%v) after the phone's Allow", out.String(), err)
	}
}
