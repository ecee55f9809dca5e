package web_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
)

// The board as a new user first meets it: before the server answers, on
// a phone, and with a session whose list is done while its agent works.

// TestDashboard_Browser_BeforeTheFirstAnswerTheBoardSaysItIsConnecting:
// "No agent sessions yet" before the server said anything told a user
// their agents were not seen.
func TestDashboard_Browser_BeforeTheFirstAnswerTheBoardSaysItIsConnecting(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	r := newRig(t, nil)
	b := startBrowser(t)
	block := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{
			{URLPattern: r.http.URL + "/api/*", Block: true},
		}})
		return err
	})
	b.do(t, chromedp.EmulateViewport(1280, 800), block, chromedp.Navigate(r.http.URL+"/"))
	b.poll(t, "the page tried the stream", `document.getElementById('conn').dataset.state !== 'connecting'`)
	if got := b.eval(t, `document.getElementById('empty').textContent`); got != "Connecting…" {
		t.Errorf("with no answer from the server the board reads %q, want Connecting…", got)
	}
}

// TestDashboard_Browser_APhoneFoldsTheFiltersBehindOneControl: at 390×844
// the sticky header took a quarter of the screen and cut "Group by" at
// "Agent".
func TestDashboard_Browser_APhoneFoldsTheFiltersBehindOneControl(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	r := newRig(t, nil)
	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(390, 844), chromedp.Navigate(r.http.URL+"/"))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	b.waitCardWhere(t, todowriteID, `c.visible`)
	t.Cleanup(func() {
		if t.Failed() {
			b.shot(t, "dashboard-phone-failure.png")
		}
	})
	height := func() int {
		h, err := strconv.ParseFloat(b.eval(t, `String(document.querySelector('.topbar').getBoundingClientRect().height)`), 64)
		if err != nil {
			t.Fatal(err)
		}
		return int(h)
	}
	if h := height(); h > 844/12 {
		t.Errorf("the header is %d px of 844: the filters are not folded away", h)
	}
	if b.eval(t, `String(document.getElementById('filters').checkVisibility())`) != "false" {
		t.Error("the filters show on a phone before they are asked for")
	}
	b.shot(t, "dashboard-phone-390x844.png")

	b.do(t, chromedp.Click(chromedp.ID("filters-toggle")))
	b.poll(t, "the control shows the filters", `document.getElementById('filters').checkVisibility()`)
	if got := b.eval(t, `document.getElementById('filters-toggle').getAttribute('aria-expanded')`); got != "true" {
		t.Errorf("aria-expanded is %q once open", got)
	}
	// Every choice of "Group by" is on screen, none cut at the edge.
	cut := b.eval(t, `[...document.querySelectorAll('#group-by label')].filter((l) => {
		const r = l.getBoundingClientRect(); return r.right > innerWidth || r.left < 0 || r.width === 0;
	}).map((l) => l.textContent.trim()).join(', ')`)
	if cut != "" {
		t.Errorf("Group by choices cut or hidden at 390 px: %s", cut)
	}
	if w := b.eval(t, `String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("with the filters open the page is %s px wide: it scrolls sideways", w)
	}
	b.shot(t, "dashboard-phone-filters-390x844.png")

	// A filter in use is counted on the control, folded or not.
	b.do(t, chromedp.Click(chromedp.ID("f-needs")))
	b.do(t, chromedp.Click(chromedp.ID("filters-toggle")))
	b.poll(t, "the filters fold again", `!document.getElementById('filters').checkVisibility()`)
	if got := b.eval(t, `document.getElementById('filters-toggle').textContent`); got != "Filters · 1" {
		t.Errorf("the control reads %q with one filter in use, want Filters · 1", got)
	}
	if h := height(); h > 844/12 {
		t.Errorf("folded again, the header is %d px", h)
	}
}

// TestDashboard_Browser_AListDoneWhileItsAgentWorksReadsAsItsColumn: a
// card in the Working column said "Finished"; it says its list is done,
// and "Finished" once the session stops working.
func TestDashboard_Browser_AListDoneWhileItsAgentWorksReadsAsItsColumn(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	r := newRig(t, nil)
	b := startBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(r.http.URL+"/"))
	b.poll(t, "the stream is live", `document.getElementById('conn').dataset.state === 'live'`)
	now := r.clock.Now()
	rec := r.record(todowriteID)
	rec.Signal = tally.SignalWorking
	rec.LastActivity = now.Add(-5 * time.Second)
	rec.Flags = tally.Flags{}.With(tally.FlagFinished, now.Add(-5*time.Second))
	rec.StallAt = time.Time{}
	r.publish(index.Change{Kind: index.SessionUpdated, ID: todowriteID, Record: rec})
	c := b.waitCardWhere(t, todowriteID, `c.column === 'working' && c.flags.length > 0`)
	if c.State != "Working" || len(c.Flags) != 1 || c.Flags[0] != "List done" {
		t.Errorf("a working card with its list done reads %q with flags %q, want Working and List done", c.State, c.Flags)
	}
	rec.Signal = tally.SignalEnded
	r.publish(index.Change{Kind: index.SessionUpdated, ID: todowriteID, Record: rec})
	c = b.waitCardWhere(t, todowriteID, `c.column === 'ended'`)
	if len(c.Flags) != 1 || c.Flags[0] != "Finished" {
		t.Errorf("an ended card with its list done has flags %q, want Finished", c.Flags)
	}
}
