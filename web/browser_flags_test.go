package web_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
)

// Detection's flags on the board: badges on every card, and the "Needs
// you" strip above the board that a person sees from across the room.

const (
	// The real Claude Code session that showed a permission prompt, and
	// the Notification its hook was given (hook/testdata/README.md).
	permissionTranscript = "../hook/testdata/claude-2.1.330/permission/transcript.jsonl"
	permissionPayload    = "../hook/testdata/claude-2.1.330/permission/payloads/Notification-permission_prompt.json"
	permissionSession    = "f67b2928-dc45-493f-a35d-bba8ab21b224"
	// The real Claude Code session that ran `ls` five times in a row
	// (detect/testdata/claude-loop/README.md).
	loopTranscript = "../detect/testdata/claude-loop/session.jsonl"
	loopSession    = "c99f2168-0042-4056-b00b-467eac02758e"
)

// tallyIn runs the built binary as tally does, stdin holding in: the way
// an agent runs `tally hook`.
func (s *serveProc) tallyIn(t *testing.T, in []byte, args ...string) string {
	t.Helper()
	i := len(s.args) - 3 // before "serve --addr ADDR"
	cmd := exec.Command(s.args[0], append(append([]string{}, s.args[1:i]...), args...)...)
	cmd.Dir = s.home
	cmd.Env = dashEnv(s.home)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tally %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// needView is one entry of the "Needs you" strip as a person reads it.
type needView struct {
	ID    string   `json:"id"`
	Flags []string `json:"flags"`
	Title string   `json:"title"`
}

const needsJS = `(document.getElementById('needs').hidden ? [] :
  [...document.querySelectorAll('#needs-list .need')].map((li) => ({id: li.dataset.id,
    flags: [...li.querySelectorAll('.flag')].map((e) => e.textContent),
    title: li.querySelector('.need-title').textContent})))`

func (b *browser) needs(t *testing.T) []needView {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]needView](needsJS))
	if err != nil {
		t.Fatalf("reading the Needs you strip: %v", err)
	}
	return v
}

// waitNeeds waits until the strip lists exactly ids, in this order.
func (b *browser) waitNeeds(t *testing.T, ids ...string) []needView {
	t.Helper()
	expr := `JSON.stringify(` + needsJS + `.map((n) => n.id)) === ` + dashJSON(t, dashJSON(t, ids))
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting until Needs you lists %v: %v (it lists %v)", ids, err, b.needs(t))
	}
	return b.needs(t)
}

var (
	needsYouBadge = regexp.MustCompile(`^Needs you · \d+s$`)
	stalledBadge  = regexp.MustCompile(`^Stalled · \d+s$`)
)

// A person walks away from three agents: one asks for permission (Claude
// Code's Notification hook, run as Claude Code runs it), one loops on a
// tool call, one just works. From across the room the page shows the two
// that need them, most urgent first, and counts them in its title.
func TestDashboard_Browser_NeedsYou(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	srv := startServe(t)
	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.url))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	t.Cleanup(func() {
		if t.Failed() {
			b.shot(t, "dashboard-needs-failure.png")
		}
	})

	// The permission session as it stood when the prompt showed: its last
	// line a Bash call, so it works and asks for nothing yet. It kept no
	// list, but the board never goes empty: its card shows the call
	// running, from the runtime's own record of its tool calls.
	transcript := filepath.Join(srv.claude, "projects", "-tmp-perm-work", permissionSession+".jsonl")
	writeAged(t, transcript, dashReadLines(t, permissionTranscript), 20*time.Second)
	if c := b.waitCardWhere(t, permissionSession, `c.column === 'working'`); len(c.Flags) != 0 || !strings.Contains(c.Spinner, "tool call") {
		t.Errorf("a session at work with no list shows %q with flags %q; want its running call", c.Spinner, c.Flags)
	}
	if n := b.needs(t); len(n) != 0 {
		t.Errorf("Needs you lists %v while no session asks for anything", n)
	}

	var payload map[string]any
	raw, err := os.ReadFile(permissionPayload)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &payload); err != nil {
		t.Fatal(err)
	}
	payload["transcript_path"] = transcript
	in, _ := json.Marshal(payload)
	srv.tallyIn(t, in, "hook", "claude")

	// Needing the person, it shows, list or no list.
	c := b.waitCardWhere(t, permissionSession, `c.visible && c.flags.length > 0`)
	if len(c.Flags) != 1 || !needsYouBadge.MatchString(c.Flags[0]) {
		t.Errorf("after the permission prompt the card's flags read %q, want one like \"Needs you · 3s\"", c.Flags)
	}
	n := b.waitNeeds(t, permissionSession)
	if len(n[0].Flags) != 1 || !needsYouBadge.MatchString(n[0].Flags[0]) || n[0].Title != c.Title {
		t.Errorf("Needs you reads %+v, want the card's title %q and \"Needs you · Ns\"", n[0], c.Title)
	}
	b.poll(t, "the title counts one", `document.title.startsWith('(1) Tally')`)

	// The looping session, and one that only works.
	writeAged(t, filepath.Join(srv.claude, "projects", "-tmp-loop", loopSession+".jsonl"), dashReadLines(t, loopTranscript), time.Minute)
	lines := dashReadLines(t, filepath.Join(captureRoot, "tasks/config/projects", tasksProject, tasksSession+".jsonl"))
	writeAged(t, filepath.Join(srv.claude, "projects", tasksProject, tasksSession+".jsonl"), lines[:37], 10*time.Second)
	c = b.waitCardWhere(t, loopSession, `c.flags.includes('Looping')`)
	if c.Flags[0] != "Looping" {
		t.Errorf("the looping card's flags read %q, want Looping first (most urgent)", c.Flags)
	}
	n = b.waitNeeds(t, permissionSession, loopSession)
	if !slices.Contains(n[1].Flags, "Looping") {
		t.Errorf("Needs you lists the looping session as %+v", n[1])
	}
	b.poll(t, "the title counts two", `document.title.startsWith('(2) Tally')`)
	if c := b.waitCardWhere(t, tasksSession, `c.count === '0/3'`); len(c.Flags) != 0 {
		t.Errorf("a session at work shows flags %q", c.Flags)
	}
	if top := b.eval(t, `String(document.getElementById('needs').getBoundingClientRect().bottom <= document.getElementById('board').getBoundingClientRect().top)`); top != "true" {
		t.Error("Needs you is not above the board")
	}
	b.shot(t, "dashboard-needs-you-1280x800.png")

	// "Needs you only" hides the session that only works.
	b.do(t, chromedp.Click(chromedp.ID("f-needs")))
	b.waitCardWhere(t, tasksSession, `!c.visible`)
	for _, id := range []string{permissionSession, loopSession} {
		b.waitCardWhere(t, id, `c.visible`)
	}
	b.do(t, chromedp.Click(chromedp.ID("f-needs")))
	b.waitCardWhere(t, tasksSession, `c.visible`)

	// The strip opens a session's detail, which lists its flags with since
	// when.
	b.do(t, chromedp.Click(chromedp.CSS(`#needs-list .need[data-id="`+permissionSession+`"] .need-title`)))
	b.poll(t, "the detail dialog opens", `document.getElementById('detail').open`)
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#detail [data-part="flags"] li')].map((li) => li.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !regexp.MustCompile(`^Needs you · \d+ssince .+ \(\d+s ago\)$`).MatchString(got[0]) {
		t.Errorf("the detail lists flags %q, want Needs you with since when", got)
	}
	b.shot(t, "dashboard-needs-detail-1280x800.png")
	b.do(t, chromedp.Click(chromedp.ID("detail-close")))
	b.wantCalm(t)
}

// A working session stalls with time alone: the server sent when it would
// (stallAt) and sends nothing more, and the page turns it stalled at that
// moment — badge and strip — by its own clock.
func TestDashboard_Browser_StallsByTheClock(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	r := newRig(t, nil)
	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(r.http.URL+"/"))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	t.Cleanup(func() {
		if t.Failed() {
			b.shot(t, "dashboard-stall-failure.png")
		}
	})

	// Mid-turn ten seconds ago; stalled eight seconds from now on the
	// server's clock (which stands still: only the page's moves on).
	now := r.clock.Now()
	rec := r.record(todowriteID)
	rec.Signal = tally.SignalWorking
	rec.LastActivity = now.Add(-10 * time.Second)
	rec.Flags = tally.Flags{}
	rec.StallAt = now.Add(8 * time.Second)
	r.publish(index.Change{Kind: index.SessionUpdated, ID: todowriteID, Record: rec})
	r.waitPublished(1)

	c := b.waitCardWhere(t, todowriteID, `c.state === 'Working'`)
	if len(c.Flags) != 0 {
		t.Fatalf("before its stall time the card shows flags %q", c.Flags)
	}
	for _, n := range b.needs(t) {
		if n.ID == todowriteID {
			t.Fatalf("before its stall time Needs you lists it: %+v", n)
		}
	}
	events := r.srv.Stats().EventsPublished

	c = b.waitCardWhere(t, todowriteID, `c.flags.length > 0`)
	if len(c.Flags) != 1 || !stalledBadge.MatchString(c.Flags[0]) {
		t.Errorf("at its stall time the card's flags read %q, want one like \"Stalled · 0s\"", c.Flags)
	}
	var listed bool
	for _, n := range b.needs(t) {
		if n.ID == todowriteID {
			listed = len(n.Flags) == 1 && stalledBadge.MatchString(n.Flags[0])
		}
	}
	if !listed {
		t.Errorf("Needs you lists %+v, want the stalled session", b.needs(t))
	}
	if tone := b.eval(t, `document.querySelector('`+cardSel(todowriteID)+` .flag').dataset.tone`); tone != "now" {
		t.Errorf("the stalled badge's tone is %q, want now (red, as the terminal draws it)", tone)
	}
	if got := r.srv.Stats().EventsPublished; got != events {
		t.Errorf("the server sent %d events meanwhile: the page must age stallAt itself", got-events)
	}
	b.wantCalm(t)
}
