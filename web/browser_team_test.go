package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// A team's board in a real browser: the server's store holds tokens, so
// the page asks for one; a wrong token is refused on the form, a right one
// opens the board, and the browser keeps it across a reload. Sessions
// pushed from two machines show where they came from on their cards and in
// the detail, and the machine filter picks one machine's.
func TestDashboard_TeamTokenAndOrigin(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test: skipped in -short mode")
	}
	requireChromium(t)
	srv := startServe(t)
	read := lastLine(srv.tally(t, "token", "create", "--scope", "read", "--name", "board"))
	write := lastLine(srv.tally(t, "token", "create", "--scope", "write", "--name", "lead"))
	// One push token for each machine: a token pushes only for its own.
	pushAs := map[string]string{
		"ana-laptop": lastLine(srv.tally(t, "token", "create", "--scope", "push", "--machine", "ana-laptop")),
		"bo-desk":    lastLine(srv.tally(t, "token", "create", "--scope", "push", "--machine", "bo-desk")),
	}
	srv.stop(t)
	srv.start(t) // tokens are looked for when serve starts

	now := time.Now().UTC()
	rec := tally.Record{ID: "pushed-session-1", Agent: claude.Agent, Project: "/home/ana/src/api", Title: "Pushed from Ana's laptop",
		StartedAt: now.Add(-time.Minute), LastActivity: now, Signal: tally.SignalWorking,
		Lists: map[string][]tally.Item{"": {{ID: "1", Title: "Ship it", Status: tally.StatusInProgress, Source: tally.SourceTask}}}}
	bo := rec
	// Ana's agent asks; its hook waits on her laptop, whose tally push
	// takes a decision taken here home: the team's board shows it with its
	// buttons.
	rec.Signal = tally.SignalAsking
	rec.Requests = []tally.Request{{ID: "r1", Session: rec.ID, Agent: claude.Agent, Tool: "Bash", Summary: "make deploy",
		AskedAt: now, ExpiresAt: now.Add(2 * time.Minute)}}
	bo.ID, bo.Title = "pushed-session-2", "Pushed from Bo's desk"
	// Bo's agent asks too, but his tally push does not take decisions
	// home (an older one): his request is answered on his desk.
	bo.Signal = tally.SignalAsking
	bo.Requests = []tally.Request{{ID: "r2", Session: bo.ID, Agent: claude.Agent, Tool: "Bash", Summary: "make test",
		AskedAt: now, ExpiresAt: now.Add(2 * time.Minute)}}
	for _, b := range []tally.PushBatch{
		{Machine: "ana-laptop", User: "ana", Stream: "s1", To: 1, Relays: true, Sessions: []tally.Record{rec}},
		{Machine: "bo-desk", User: "bo", Stream: "s1", To: 1, Sessions: []tally.Record{bo}},
	} {
		body, _ := json.Marshal(b)
		req, _ := http.NewRequest(http.MethodPost, srv.url+"api/push", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+pushAs[b.Machine])
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("push: %v %v", resp, err)
		}
		resp.Body.Close()
	}

	b := startBrowser(t)
	t.Cleanup(func() {
		if t.Failed() {
			b.shot(t, "team-failure.png")
		}
	})
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.url))
	b.poll(t, "the page asks for a token", `document.getElementById('login').open`)
	b.do(t, chromedp.SendKeys(`#login-token`, "tly_wrong"+kb.Enter))
	b.poll(t, "a wrong token is refused on the form", `document.getElementById('login-error').textContent.includes('does not know')`)
	b.do(t, chromedp.Evaluate[chromedp.Void](`document.getElementById('login-token').value = ''`), chromedp.SendKeys(`#login-token`, read+kb.Enter))
	b.poll(t, "the right token opens the board", `!document.getElementById('login').open && document.getElementById('conn').dataset.state === 'live'`)
	b.waitCardWhere(t, rec.ID, `c.count === "0/1"`)
	if got := b.eval(t, `document.querySelector('.card[data-id="pushed-session-1"] [data-part="origin"]').textContent`); got != "ana@ana-laptop" {
		t.Errorf("the card's origin: %q", got)
	}
	if got := b.eval(t, `document.cookie`); strings.Contains(got, "tly_") {
		t.Errorf("a script can read the token: %q", got)
	}

	b.do(t, chromedp.Reload())
	b.poll(t, "after a reload the board opens without asking", `document.getElementById('conn').dataset.state === 'live' && !document.getElementById('login').open`)
	b.waitCardWhere(t, rec.ID, `c.count === "0/1"`)

	boCard := `.card[data-id="pushed-session-2"] [data-part="request"]`
	b.poll(t, "Bo's request shows, answered on his desk", `(() => { const r = document.querySelector(`+dashJSON(t, boCard)+`);
		return !!r && !r.hidden && r.querySelector('[data-part="request-buttons"]').hidden
			&& r.querySelector('[data-part="request-remote"]').textContent.startsWith('Answer it on bo-desk'); })()`)

	b.poll(t, "the machine filter shows with the pushed machine", `!document.getElementById('f-machine-field').hidden && [...document.getElementById('f-machine').options].some(o => o.value === 'ana-laptop')`)
	b.do(t, chromedp.Evaluate[chromedp.Void](`{ const f = document.getElementById('f-machine'); f.value = 'ana-laptop'; f.dispatchEvent(new Event('change')); }`))
	b.poll(t, "the machine filter keeps its machine's card and hides the other's",
		`!document.querySelector('.card[data-id="pushed-session-1"]').hidden && document.querySelector('.card[data-id="pushed-session-2"]').hidden`)

	card := `.card[data-id="pushed-session-1"] [data-part="request"]`
	b.poll(t, "the pushed request shows, with the buttons that decide it here", `(() => { const r = document.querySelector(`+dashJSON(t, card)+`);
		return !!r && !r.hidden && r.querySelector('[data-part="request-summary"]').textContent === 'make deploy'
			&& !r.querySelector('[data-part="request-buttons"]').hidden
			&& r.querySelector('[data-part="request-remote"]').hidden; })()`)

	// A write token decides it on the team's server (as the Allow button
	// does with one); the card shows who decided while the laptop's tally
	// push takes it home (e2e TestTeam_aDecisionOnTheTeamBoardAnswersTheHookOnTheLaptop).
	body, _ := json.Marshal(map[string]string{"session": rec.ID, "verdict": "allow"})
	req, _ := http.NewRequest(http.MethodPost, srv.url+"api/requests/r1", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+write)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("deciding the pushed request: %v %v", resp, err)
	}
	resp.Body.Close()
	b.poll(t, "the card shows the decision taken here", `(() => { const r = document.querySelector(`+dashJSON(t, card)+`);
		return r.querySelector('[data-part="request-buttons"]').hidden
			&& r.querySelector('[data-part="request-decided"]').textContent.startsWith('Allowed by lead'); })()`)

	b.do(t, chromedp.Click(`.card[data-id="pushed-session-1"] .title`))
	b.poll(t, "the detail names the origin", `document.querySelector('#detail-body [data-fact="origin"]')?.textContent === 'ana@ana-laptop'`)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
