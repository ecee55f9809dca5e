package web_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/testhome"
)

// The browser test drives the real `tally serve` binary from a real
// headless Chromium: it writes a captureRoot Claude Code session into an empty
// Claude home line by line and checks what the page shows against the
// capture's own record, without reloading the page.

const (
	chromiumPath = "/usr/bin/chromium"
	captureRoot  = "../testdata/fixtures/captured/claude-code-2.1.330/"
	tasksProject = "-tmp-capture-cc-tasks-work"
	tasksSession = "ff833579-73c0-4d20-92ee-931086a0b9c3"
	subProject   = "-tmp-capture-cc-tasks-subagent-work"
	subSession   = "e277426f-1861-4a5b-b21f-e5791c308bc2"
	xssTitle     = `<img src=x onerror=alert(1)>`
)

func TestDashboard_Browser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)

	lines := dashReadLines(t, filepath.Join(captureRoot, "tasks/config/projects", tasksProject, tasksSession+".jsonl"))
	if len(lines) < 76 {
		t.Fatalf("capture has %d lines, want at least 76", len(lines))
	}
	// The capture is from another day: shift its clock so the session is
	// live now, keeping the agent's own spacing between lines.
	shift := shiftFor(t, lines[0])
	want := captureFacts(t, lines)

	srv := startServe(t)
	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.url))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	b.poll(t, "the empty board says so", `!document.getElementById('empty').hidden &&
		document.getElementById('empty').textContent.startsWith('No agent sessions yet')`)
	b.checkDialogDetector(t)
	b.wantThresholds(t)
	b.do(t, chromedp.Evaluate[chromedp.Void](`window.__tallyMarker = 'no reload'`))

	// Each step builds on the board the previous one left; after a failure
	// the rest would only add noise.
	step := func(name string, f func(t *testing.T)) {
		if t.Failed() {
			t.Logf("skipped %q: an earlier step failed", name)
			return
		}
		t.Run(name, f)
	}
	t.Cleanup(func() {
		if t.Failed() {
			b.shot(t, "dashboard-failure.png")
		}
	})

	project := filepath.Join(srv.claude, "projects", tasksProject)
	file := filepath.Join(project, tasksSession+".jsonl")

	step("new session file shows a card", func(t *testing.T) {
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		// Lines 1–37: three TaskCreate calls and their results.
		dashAppend(t, file, shiftAll(t, lines[:37], shift))
		c := b.waitCard(t, tasksSession, "0/3")
		if c.Column == "ended" || c.Column == "" {
			t.Errorf("card is in column %q, want a live one", c.Column)
		}
		wantRows(t, c, []cardRow{
			{"◻", want.subjects[0]}, {"◻", want.subjects[1]}, {"◻", want.subjects[2]},
		})
		if c.Agent != "claude" || c.Project != "…/tasks/work" {
			t.Errorf("card head: agent %q project %q, want claude, …/tasks/work", c.Agent, c.Project)
		}
	})

	step("appended lines update the card in place", func(t *testing.T) {
		// Lines 38–76: task 1 started then completed, 3 blocked by 2, 2 started.
		b.tagCard(t, tasksSession)
		dashAppend(t, file, shiftAll(t, lines[37:76], shift))
		c := b.waitCard(t, tasksSession, "1/3")
		// Compact: completed work folds into one row.
		wantRows(t, c, []cardRow{
			{"◼", want.activeForms[1]}, {"▸", want.subjects[2]}, {"", "… +1 done"},
		})
		b.wantMarker(t)
		b.wantTagged(t, tasksSession)
	})

	step("full and compact toggle", func(t *testing.T) {
		full := []cardRow{{"✓", want.subjects[0]}, {"◼", want.activeForms[1]}, {"▸", want.subjects[2]}}
		b.do(t, chromedp.Click(chromedp.CSS(cardSel(tasksSession)+" .more-button")))
		wantRows(t, b.card(t, tasksSession), full)
		b.do(t, chromedp.Click(chromedp.CSS(cardSel(tasksSession)+" .toggle")))
		if c := b.card(t, tasksSession); c.Full || rowLabels(c.Rows)[0] == want.subjects[0] {
			t.Errorf("after toggling back: full=%v rows %v, want compact", c.Full, c.Rows)
		}
		b.do(t, chromedp.Click(chromedp.CSS(cardSel(tasksSession)+" .toggle")))
		wantRows(t, b.card(t, tasksSession), full)
	})

	step("task title with markup renders as text", func(t *testing.T) {
		dashAppend(t, file, xssLines(t, lines))
		c := b.waitCard(t, tasksSession, "1/4")
		if !c.Full {
			t.Error("the card lost its full-list choice on update")
		}
		if !slices.Contains(rowLabels(c.Rows), xssTitle) {
			t.Errorf("rows %v, want one labelled %q", c.Rows, xssTitle)
		}
		if n := b.eval(t, `document.querySelectorAll('img').length`); n != "0" {
			t.Errorf("the page holds %s <img> elements: markup from the log was parsed", n)
		}
		b.wantMarker(t)
	})

	step("detail view lists the main agent's tasks", func(t *testing.T) {
		b.do(t, chromedp.Click(chromedp.CSS(cardSel(tasksSession)+" .title")))
		b.poll(t, "the detail dialog opens", `document.getElementById('detail').open`)
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('#detail .detail-items .label')].map(e => e.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{want.subjects[0], want.activeForms[1], want.subjects[2], xssTitle} {
			if !slices.Contains(got, s) {
				t.Errorf("detail labels %q lack %q", got, s)
			}
		}
		wantDetailWords(t, b, "#2 · in progress")
		b.shot(t, "dashboard-detail-1280x800.png")
		b.do(t, chromedp.Click(chromedp.ID("detail-close")))
		b.poll(t, "the detail dialog closes", `!document.getElementById('detail').open`)
	})

	step("sub-agent session shows its count", func(t *testing.T) {
		copySession(t, filepath.Join(captureRoot, "tasks-subagent/config/projects", subProject),
			filepath.Join(srv.claude, "projects", subProject), shift)
		b.tagCard(t, tasksSession)
		c := b.waitCardWhere(t, subSession, `c.subs !== ''`)
		b.wantTagged(t, tasksSession)
		if c.Subs != "+1 sub" {
			t.Errorf("sub-agent badge %q, want +1 sub (the capture has one subagents/agent-*.jsonl)", c.Subs)
		}
		// Its detail names the sub-agent as its meta.json does.
		b.do(t, chromedp.Click(chromedp.CSS(cardSel(subSession)+" .title")))
		b.poll(t, "the detail dialog opens", `document.getElementById('detail').open`)
		heads := b.eval(t, `[...document.querySelectorAll('#detail .detail-h')].map(e => e.textContent).join('|')`)
		if !strings.Contains(heads, "Sub-agent Audit string helpers") {
			t.Errorf("detail headings %q do not name the sub-agent by its description", heads)
		}
		b.do(t, chromedp.Click(chromedp.ID("detail-close")))
		b.poll(t, "the detail dialog closes", `!document.getElementById('detail').open`)
	})

	step("an idle card shows how long it has been silent, once", func(t *testing.T) { stepIdleCard(t, b, srv) })
	step("an ended card says when it ended", func(t *testing.T) { stepEndedCard(t, b, srv) })
	step("sessions without a list: shown, counted, hidden on request", func(t *testing.T) { stepWithoutList(t, b, srv) })
	step("an agent without a todo tool says it kept no list", func(t *testing.T) { stepNoTodoTool(t, b) })

	step("a plan-mode list is approved from its card", func(t *testing.T) { stepApprovePlan(t, b, srv) })
	step("a permission request is answered from its card", func(t *testing.T) { stepRemoteApproval(t, b, srv) })

	step("filters hide and show cards", func(t *testing.T) {
		b.do(t, chromedp.SendKeys(chromedp.ID("f-q"), "nothing-matches"))
		b.poll(t, "the filter hides every card", `!document.getElementById('empty').hidden`)
		b.do(t, chromedp.SendKeys(chromedp.ID("f-q"), strings.Repeat(kb.Backspace, len("nothing-matches"))))
		b.waitCardWhere(t, tasksSession, `c.visible`)
		b.do(t, chromedp.Click(chromedp.CSS(`input[name="group"][value="project"]`)))
		if c := b.card(t, tasksSession); c.Column != "/tmp/capture/cc/tasks/work" {
			t.Errorf("grouped by project, card is in column %q", c.Column)
		}
		b.do(t, chromedp.Click(chromedp.CSS(`input[name="group"][value="agent"]`)))
		if c := b.card(t, tasksSession); c.Column != "claude" {
			t.Errorf("grouped by agent, card is in column %q", c.Column)
		}
		b.do(t, chromedp.Click(chromedp.CSS(`input[name="group"][value="activity"]`)))
	})

	step("projects that end alike read differently", func(t *testing.T) { stepProjectsApart(t, b, srv) })

	step("server restart: reconnects and keeps the board", func(t *testing.T) {
		b.quiet(true) // the browser logs the refused connections meanwhile
		srv.stop(t)
		b.poll(t, "the page shows the connection is lost",
			`document.getElementById('conn').dataset.state !== 'live'`)
		srv.start(t)
		b.poll(t, "the page reconnects", `document.getElementById('conn').dataset.state === 'live'`)
		b.quiet(false)
		c := b.waitCard(t, tasksSession, "1/4")
		if !c.Full {
			t.Error("the card lost its full-list choice over the reconnect")
		}
		b.wantMarker(t)
	})

	step("layout at desktop and phone widths", func(t *testing.T) {
		if b.card(t, tasksSession).Full {
			b.do(t, chromedp.Click(chromedp.CSS(cardSel(tasksSession)+" .toggle")))
		}
		if xs := b.columnXs(t); len(slices.Compact(slices.Sorted(slices.Values(xs)))) != len(xs) {
			t.Errorf("at 1280 px the columns are not side by side: x = %v", xs)
		}
		b.shot(t, "dashboard-1280x800.png")
		b.darkShot(t, "dashboard-dark-1280x800.png")
		b.do(t, chromedp.EmulateViewport(390, 844))
		if xs := b.columnXs(t); len(slices.Compact(slices.Sorted(slices.Values(xs)))) != 1 {
			t.Errorf("at 390 px the columns do not stack: x = %v", xs)
		}
		if w := b.eval(t, `String(document.documentElement.scrollWidth)`); w != "390" {
			t.Errorf("at 390 px the page is %s px wide: it scrolls sideways", w)
		}
		b.shot(t, "dashboard-390x844.png")
	})

	b.wantMarker(t)
	b.wantCalm(t)
}

// ---- the server -------------------------------------------------------

type serveProc struct {
	url    string
	claude string
	home   string
	cmd    *exec.Cmd
	args   []string
	out    dashOutput
	exited chan error
}

// startServe builds tally and runs `tally serve` on a free loopback port
// over an empty home: every agent directory is empty and nothing of the
// machine's own agents is read.
func startServe(t *testing.T) *serveProc {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "tally")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	build := exec.Command(goBin, "build", "-o", bin, "../cmd/tally")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building tally: %v\n%s", err, out)
	}

	home := filepath.Join(tmp, "home")
	dirs := map[string]string{}
	for _, d := range []string{"claude", "codex", "gemini", "hermes", "opencode", "crush"} {
		dirs[d] = filepath.Join(home, d)
		if err := os.MkdirAll(dirs[d], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range []string{"projects", "tasks"} {
		if err := os.MkdirAll(filepath.Join(dirs["claude"], root), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	addr := dashFreeAddr(t)
	s := &serveProc{url: "http://" + addr + "/", claude: dirs["claude"], home: home, args: []string{bin,
		"--db", filepath.Join(tmp, "tally.db"),
		"--claude-dir", dirs["claude"], "--codex-home", dirs["codex"], "--gemini-home", dirs["gemini"],
		"--hermes-home", dirs["hermes"], "--opencode-dir", dirs["opencode"], "--crush-dir", dirs["crush"],
		"serve", "--addr", addr}}
	s.start(t)
	t.Cleanup(func() {
		s.stop(t)
		if t.Failed() {
			t.Logf("tally serve output:\n%s", s.out.String())
		}
	})
	return s
}

// start runs the server and waits until its API answers.
func (s *serveProc) start(t *testing.T) {
	t.Helper()
	s.cmd = exec.Command(s.args[0], s.args[1:]...)
	s.cmd.Dir = s.home
	s.cmd.Env = dashEnv(s.home)
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.exited = make(chan error, 1)
	go func(cmd *exec.Cmd, exited chan<- error) { exited <- cmd.Wait() }(s.cmd, s.exited)

	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-s.exited:
			s.cmd = nil
			t.Fatalf("tally serve exited: %v\n%s", err, s.out.String())
		default:
		}
		res, err := http.Get(s.url + "api/sessions")
		if err == nil {
			res.Body.Close()
			// Serving: 401 is a server whose store holds tokens.
			if res.StatusCode == http.StatusOK || res.StatusCode == http.StatusUnauthorized {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("tally serve did not answer %sapi/sessions within 20 s (last: %v)\n%s", s.url, err, s.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop interrupts the server as Ctrl-C would.
func (s *serveProc) stop(t *testing.T) {
	t.Helper()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		t.Error("tally serve did not stop within 5 s of an interrupt")
	}
	s.cmd = nil
}

// dashEnv is an environment with nothing of the machine's agent homes,
// database or tokens: home is the whole world of the server.
func dashEnv(home string) []string { return testhome.Environ(home) }

func dashFreeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type dashOutput struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *dashOutput) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *dashOutput) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// ---- the browser ------------------------------------------------------

// requireChromium skips when Debian's chromium is missing, unless CI or
// TALLY_REQUIRE_BROWSER says the test must run.
func requireChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err == nil {
		return
	}
	msg := chromiumPath + " is missing: run scripts/deps-browser (apt-get install chromium)"
	if os.Getenv("CI") != "" || os.Getenv("TALLY_REQUIRE_BROWSER") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg + "; set TALLY_REQUIRE_BROWSER=1 to make this a failure")
}

type browser struct {
	ctx      context.Context
	dialogs  atomic.Int64
	mu       sync.Mutex
	problems []string // console errors and uncaught exceptions
	muted    bool     // while the server is down on purpose
}

// quiet stops counting console errors while the test itself breaks the
// connection.
func (b *browser) quiet(on bool) {
	b.mu.Lock()
	b.muted = on
	b.mu.Unlock()
}

func startBrowser(t *testing.T) *browser {
	t.Helper()
	profile, err := os.MkdirTemp("", "tally-chromium")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(profile) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &browser{}
	open := make(chan struct{}, 8)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			b.dialogs.Add(1)
			select {
			case open <- struct{}{}:
			default:
			}
		}
	}))
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	b.ctx = ctx
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	// A dialog blocks the page until answered: dismiss any, after counting.
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-open:
				_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			}
		}
	}()
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleException || m.Type == chromedp.ConsoleError {
				b.mu.Lock()
				if !b.muted {
					b.problems = append(b.problems, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
				}
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// eval runs a JavaScript expression whose value is a string.
func (b *browser) eval(t *testing.T, expr string) string {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return fmt.Sprint(v)
}

func (b *browser) poll(t *testing.T, what, expr string) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("waiting until %s: %v", what, err)
	}
}

// checkDialogDetector proves the dialog count works, so that a count of
// zero later means something.
func (b *browser) checkDialogDetector(t *testing.T) {
	t.Helper()
	before := b.dialogs.Load()
	b.do(t, chromedp.Evaluate[chromedp.Void](`setTimeout(() => alert('probe'), 0)`))
	deadline := time.Now().Add(5 * time.Second)
	for b.dialogs.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("a deliberate alert() was not seen: the dialog detector does not work")
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.dialogs.Store(0)
	// The probe's alert has been answered once the page runs script again.
	b.poll(t, "the probe alert is dismissed", `true`)
}

// wantThresholds checks that the page ages activity by the thresholds the
// server sent, tally.IdleAfter and tally.EndedAfter, not by a copy.
func (b *browser) wantThresholds(t *testing.T) {
	t.Helper()
	want := map[string]int64{"idleAfterMs": tally.IdleAfter.Milliseconds(), "endedAfterMs": tally.EndedAfter.Milliseconds()}
	var got map[string]int64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[map[string]int64](
			`import('/static/clock.js').then((m) => m.currentThresholds())`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("reading the page's thresholds: %v", err)
		}
		if got = v; maps.Equal(got, want) {
			return
		}
	}
	t.Errorf("the page ages activity by %v, want the server's %v", got, want)
}

// cardView is what a person sees of one card.
type cardView struct {
	Found   bool      `json:"found"`
	Visible bool      `json:"visible"`
	Column  string    `json:"column"`
	Agent   string    `json:"agent"`
	Project string    `json:"project"`
	Count   string    `json:"count"`
	Subs    string    `json:"subs"`
	State   string    `json:"state"`
	Timer   string    `json:"timer"`
	Title   string    `json:"title"`
	Approve string    `json:"approve"`
	Sid     string    `json:"sid"`
	Spinner string    `json:"spinner"`
	Full    bool      `json:"full"`
	Rows    []cardRow `json:"rows"`
	// Flags are the badges of detection's flags, as they read.
	Flags []string `json:"flags"`
}

type cardRow struct {
	Icon  string `json:"icon"`
	Label string `json:"label"`
}

// cardJS reads a card from the DOM as cardView; hidden parts read empty.
const cardJS = `((id) => {
  const el = document.querySelector('.card[data-id="' + CSS.escape(id) + '"]');
  if (!el) return {found: false};
  const shown = (e) => !!e && e.offsetParent !== null;
  const text = (sel) => { const e = el.querySelector(sel); return shown(e) ? e.textContent : ''; };
  const rows = [...el.querySelectorAll('.items > li')].filter(shown).map((li) => li.classList.contains('more')
    ? {icon: '', label: li.textContent}
    : {icon: li.querySelector('.icon').textContent, label: li.querySelector('.label').textContent});
  return {found: true, visible: shown(el), column: el.closest('.column')?.dataset.key ?? '',
    agent: text('.agent'), project: text('.project'), count: text('.count'), subs: text('.subs'),
    state: text('.state'), timer: text('.elapsed'), title: text('.title'),
    approve: text('[data-part="approve-button"]'), sid: text('.sid'), spinner: text('.spinner-text'),
    full: el.querySelector('.toggle').getAttribute('aria-pressed') === 'true', rows,
    flags: [...el.querySelectorAll('[data-part="flags"] .flag')].filter(shown).map((e) => e.textContent)};
})`

func (b *browser) card(t *testing.T, id string) cardView {
	t.Helper()
	c, err := chromedp.Run(b.ctx, chromedp.Evaluate[cardView](cardJS+"("+dashJSON(t, id)+")"))
	if err != nil {
		t.Fatalf("reading card %s: %v", id, err)
	}
	if !c.Found {
		t.Fatalf("card %s is not on the board", id)
	}
	return c
}

// waitCardWhere waits until the card exists and cond (JavaScript over its
// cardView, named c) holds.
func (b *browser) waitCardWhere(t *testing.T, id, cond string) cardView {
	t.Helper()
	expr := fmt.Sprintf(`(() => { const c = %s(%s); return c.found && (%s); })()`, cardJS, dashJSON(t, id), cond)
	_, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		state, _ := chromedp.Run(b.ctx, chromedp.Evaluate[any](cardJS+"("+dashJSON(t, id)+")"))
		t.Fatalf("waiting for card %s where %s: %v (card now: %v)", id, cond, err, state)
	}
	return b.card(t, id)
}

func (b *browser) waitCard(t *testing.T, id, count string) cardView {
	t.Helper()
	return b.waitCardWhere(t, id, "c.count === "+dashJSON(t, count))
}

func (b *browser) wantMarker(t *testing.T) {
	t.Helper()
	if got := b.eval(t, `String(window.__tallyMarker)`); got != "no reload" {
		t.Errorf("window marker is %q: the page reloaded instead of updating in place", got)
	}
}

// tagCard marks a card's element so that wantTagged can tell it was
// patched, not rebuilt.
func (b *browser) tagCard(t *testing.T, id string) {
	t.Helper()
	b.do(t, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+dashJSON(t, cardSel(id))+`).__tallyTag = true`))
}

func (b *browser) wantTagged(t *testing.T, id string) {
	t.Helper()
	if got := b.eval(t, `String(document.querySelector(`+dashJSON(t, cardSel(id))+`)?.__tallyTag)`); got != "true" {
		t.Errorf("card %s was rebuilt instead of patched in place (tag %s)", id, got)
	}
}

// wantCalm checks that no dialog opened and the console stayed clean (a
// CSP violation or a script error shows there).
func (b *browser) wantCalm(t *testing.T) {
	t.Helper()
	if n := b.dialogs.Load(); n != 0 {
		t.Errorf("%d JavaScript dialogs opened: text from a log ran as markup", n)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("browser console: %s", p)
	}
}

func (b *browser) columnXs(t *testing.T) []float64 {
	t.Helper()
	xs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](
		`[...document.querySelectorAll('#board > .column')].map(c => Math.round(c.getBoundingClientRect().left))`))
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

// shot saves a PNG of the viewport as a test artefact.
func (b *browser) shot(t *testing.T, name string) {
	t.Helper()
	b.shotOf(t, b.ctx, name)
}

// shotOf saves a screenshot of the tab ctx drives.
func (b *browser) shotOf(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	dir := os.Getenv("TALLY_ARTIFACTS")
	if dir == "" {
		dir = "../artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	t.Logf("screenshot: %s", path)
}

func (b *browser) darkShot(t *testing.T, name string) {
	t.Helper()
	media := func(v string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}},
			})
			return err
		})
	}
	b.do(t, media("dark"))
	if bg := b.eval(t, `getComputedStyle(document.body).backgroundColor`); bg == "rgb(244, 245, 247)" {
		t.Errorf("with prefers-color-scheme: dark the background stays light (%s)", bg)
	}
	b.shot(t, name)
	b.do(t, media("light"))
}

// ---- the capture ------------------------------------------------------

// taskFacts are what the capture itself says about its tasks, in creation order.
type taskFacts struct {
	subjects    []string
	activeForms []string
}

// captureFacts reads the TaskCreate inputs of the capture: the expected
// titles come from the agent's record, not from Tally.
func captureFacts(t *testing.T, lines []string) taskFacts {
	t.Helper()
	var f taskFacts
	for _, l := range lines {
		var rec struct {
			Message struct {
				Content []struct {
					Type  string `json:"type"`
					Name  string `json:"name"`
					Input struct {
						Subject    string `json:"subject"`
						ActiveForm string `json:"activeForm"`
					} `json:"input"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(l), &rec) != nil {
			continue
		}
		for _, c := range rec.Message.Content {
			if c.Type == "tool_use" && c.Name == "TaskCreate" {
				f.subjects = append(f.subjects, c.Input.Subject)
				f.activeForms = append(f.activeForms, c.Input.ActiveForm)
			}
		}
	}
	if len(f.subjects) < 3 {
		t.Fatalf("capture has %d TaskCreate calls, want 3", len(f.subjects))
	}
	return f
}

func dashReadLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

var dashTimestamp = regexp.MustCompile(`"timestamp":"([^"]+)"`)

// dashTimes are every time an agent writes in its log lines: Claude Code's
// timestamp, and Gemini CLI's startTime and lastUpdated besides.
var dashTimes = regexp.MustCompile(`"(timestamp|startTime|lastUpdated)":"([^"]+)"`)

const dashStamp = "2006-01-02T15:04:05.000Z"

// shiftFor is how far to move the capture's clock so its first line was
// written a few seconds ago.
func shiftFor(t *testing.T, first string) time.Duration {
	t.Helper()
	m := dashTimestamp.FindStringSubmatch(first)
	if m == nil {
		t.Fatal("the capture's first line has no timestamp")
	}
	at, err := time.Parse(time.RFC3339Nano, m[1])
	if err != nil {
		t.Fatal(err)
	}
	return time.Since(at) - 5*time.Second
}

// shiftAll moves every timestamp of lines by d and leaves the rest of
// each line byte for byte as the agent wrote it.
func shiftAll(t *testing.T, lines []string, d time.Duration) []string {
	t.Helper()
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = dashTimes.ReplaceAllStringFunc(l, func(s string) string {
			m := dashTimes.FindStringSubmatch(s)
			at, err := time.Parse(time.RFC3339Nano, m[2])
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			return `"` + m[1] + `":"` + at.Add(d).UTC().Format(dashStamp) + `"`
		})
	}
	return out
}

// xssLines are a TaskCreate call whose subject is markup, and its result,
// made from the capture's own first TaskCreate pair (lines 32 and 35) with
// the ids, subject and task number changed.
func xssLines(t *testing.T, lines []string) []string {
	t.Helper()
	call, result := lines[31], lines[34]
	var last struct {
		UUID string `json:"uuid"`
	}
	if err := json.Unmarshal([]byte(lines[75]), &last); err != nil || last.UUID == "" {
		t.Fatalf("line 76 has no uuid: %v", err)
	}
	replace := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("capture line lacks %q", old)
		}
		return strings.ReplaceAll(s, old, new)
	}
	const (
		toolID  = "toolu_01HsIaAGanfAekozplpHlEE8"
		callID  = "c17b9d83-e154-46d5-98b6-d040303cc699"
		resID   = "a2a77522-4cf6-4f79-a093-646183f8b26a"
		newTool = "toolu_01XssXssXssXssXssXssXss1"
		newCall = "c17b9d83-e154-46d5-98b6-0000000000a1"
		newRes  = "a2a77522-4cf6-4f79-a093-0000000000a2"
	)
	call = replace(call, `"parentUuid":"d38abf40-4b8c-49c8-a31f-5b8405b9605d"`, `"parentUuid":"`+last.UUID+`"`)
	call = replace(call, toolID, newTool)
	call = replace(call, callID, newCall)
	call = replace(call, `"subject":"Write greeting module"`, `"subject":"`+xssTitle+`"`)
	call = replace(call, `"activeForm":"Writing greeting module"`, `"activeForm":"Rendering `+xssTitle+`"`)
	result = replace(result, toolID, newTool)
	result = replace(result, callID, newCall)
	result = replace(result, resID, newRes)
	result = replace(result, "Task #1 created successfully: Write greeting module", "Task #4 created successfully: "+xssTitle)
	result = replace(result, `"task":{"id":"1","subject":"Write greeting module"`, `"task":{"id":"4","subject":"`+xssTitle+`"`)
	// Written now, 10 ms apart, as the agent would.
	now := time.Now().UTC()
	out := []string{call, result}
	for i := range out {
		out[i] = dashTimestamp.ReplaceAllString(out[i], `"timestamp":"`+now.Add(time.Duration(i)*10*time.Millisecond).Format(dashStamp)+`"`)
	}
	return out
}

func dashAppend(t *testing.T, path string, lines []string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// copySession copies a captureRoot project folder (a session and its
// sub-agents) with shifted timestamps; sub-agent files first, so the main
// file's arrival finds them.
func copySession(t *testing.T, from, to string, shift time.Duration) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Deepest first, and at one depth sidecars before logs: Claude Code
	// writes a sub-agent's meta.json when it spawns it, and a log read
	// before its sidecar exists is read again only when the log grows.
	slices.SortFunc(files, func(a, b string) int {
		if d := strings.Count(b, "/") - strings.Count(a, "/"); d != 0 {
			return d
		}
		isLog := func(p string) int {
			if strings.HasSuffix(p, ".jsonl") {
				return 1
			}
			return 0
		}
		return cmp.Compare(isLog(a), isLog(b))
	})
	for _, p := range files {
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".jsonl") {
			lines := shiftAll(t, strings.Split(strings.TrimRight(string(data), "\n"), "\n"), shift)
			data = []byte(strings.Join(lines, "\n") + "\n")
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ---- small helpers ----------------------------------------------------

func cardSel(id string) string { return `.card[data-id="` + id + `"]` }

func rowLabels(rows []cardRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Label
	}
	return out
}

func wantRows(t *testing.T, c cardView, want []cardRow) {
	t.Helper()
	if !slices.Equal(c.Rows, want) {
		t.Errorf("card rows:\n got  %v\n want %v", c.Rows, want)
	}
}

func dashJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
