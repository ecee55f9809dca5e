package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// geminiTracker is the real Gemini CLI session that set a tracker task
// blocked with a reason (captured/README.md, task-tracker).
const (
	geminiTracker        = "../testdata/fixtures/captured/gemini-cli-0.61.0/task-tracker/gemini_home/tmp/work"
	geminiTrackerSession = "1fb695ac-76cc-4120-8ded-da2b5d3b24a5"
)

// What needs a person and what does not, from across the room: a Claude
// Code session whose "Update README" waits on "Add unit test" while it
// works on task 1 (TaskUpdate 3 addBlockedBy [2]) is order, not trouble,
// and stays out of "Needs you"; a plan an agent drafted over MCP, waiting
// for the person's approval, is in it; so is a Gemini session that set a
// task blocked, with the reason it gave.
func TestDashboard_Browser_NeedsYouListsThePlanAwaitingApprovalNotAnOrdinaryDependency(t *testing.T) {
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
			b.shot(t, "dashboard-needs-plan-failure.png")
		}
	})

	// The Claude session up to its TaskList result: 1 in progress, 2
	// pending, 3 blocked by 2, as the agent's own result says.
	lines := dashReadLines(t, filepath.Join(captureRoot, "tasks/config/projects", tasksProject, tasksSession+".jsonl"))
	upTo := -1
	for i, l := range lines {
		if strings.Contains(l, `"toolUseResult":{"tasks":[{"id":"1","subject":"Write greeting module","status":"in_progress"`) &&
			strings.Contains(l, `{"id":"3","subject":"Update README","status":"pending","blockedBy":["2"]}`) {
			upTo = i
			break
		}
	}
	if upTo < 0 {
		t.Fatal("the capture has no TaskList result with 3 blocked by 2 while 1 is in progress")
	}
	writeAged(t, filepath.Join(srv.claude, "projects", tasksProject, tasksSession+".jsonl"), lines[:upTo+1], 5*time.Second)
	c := b.waitCardWhere(t, tasksSession, `c.count === '0/3' && c.rows.some((r) => r.icon === '▸')`)
	if len(c.Flags) != 0 {
		t.Errorf("a session whose task waits on an open one while it works shows flags %q", c.Flags)
	}

	// The plan: asked for by the person, drafted by an agent over MCP.
	srv.tally(t, "tasks", "plan", planList)
	agent := connectMCP(t, srv.url)
	for _, subject := range []string{"Sketch the greeting module", "Plan its tests"} {
		if failed, text := agent.call(t, "TaskCreate", map[string]any{"list": planList, "subject": subject, "description": subject}); failed {
			t.Fatalf("TaskCreate %q: %s", subject, text)
		}
	}
	plan := "tally:" + planList
	b.waitCardWhere(t, plan, `c.approve === 'Approve plan'`)

	// The Gemini session that set "Add unit test" blocked, saying why.
	gemini := filepath.Join(srv.home, "gemini", "tmp", "work")
	if err := os.CopyFS(filepath.Join(gemini, geminiTrackerSession), os.DirFS(filepath.Join(geminiTracker, geminiTrackerSession))); err != nil {
		t.Fatal(err)
	}
	writeAged(t, filepath.Join(gemini, "chats", "session-2026-11-22T14-06-1fb695ac.jsonl"),
		dashReadLines(t, filepath.Join(geminiTracker, "chats", "session-2026-11-22T14-06-1fb695ac.jsonl")), 3*time.Second)

	n := b.waitNeeds(t, plan, geminiTrackerSession)
	if len(n[0].Flags) != 1 || !needsYouBadge.MatchString(n[0].Flags[0]) {
		t.Errorf("the plan reads %q in Needs you, want one like \"Needs you · 3s\"", n[0].Flags)
	}
	if n[1].Flags[0] != "Blocked" {
		t.Errorf("the Gemini session reads %q in Needs you, want Blocked", n[1].Flags)
	}
	why := b.eval(t, `document.querySelector('#needs-list .need[data-id="`+geminiTrackerSession+`"] .need-why').textContent`)
	if why != "Add unit test: Waiting for a decision on the test framework." {
		t.Errorf("the blocked session says why as %q, want the task and the reason the agent gave", why)
	}
	if c := b.card(t, tasksSession); len(c.Flags) != 0 {
		t.Errorf("the session with an ordinary dependency now shows flags %q", c.Flags)
	}
	b.poll(t, "the title counts two", `document.title.startsWith('(2) Tally')`)
	b.shot(t, "dashboard-needs-plan-not-dependency-1280x800.png")

	// The waiting task names what it waits on by its title, as the agent
	// wrote it, not by its id.
	b.do(t, chromedp.Click(chromedp.CSS(cardSel(tasksSession)+" .title")))
	b.poll(t, "the detail dialog opens", `document.getElementById('detail').open`)
	meta := b.eval(t, `[...document.querySelectorAll('#detail .detail-items .item')].filter((li) =>
	  li.querySelector('.label').textContent === 'Update README').map((li) => li.querySelector('.item-meta').textContent).join('|')`)
	if !strings.Contains(meta, "blocked by Add unit test") || strings.Contains(meta, "blocked by #") {
		t.Errorf("Update README's facts read %q, want it blocked by Add unit test, named", meta)
	}
	b.do(t, chromedp.Click(chromedp.ID("detail-close")))
	b.poll(t, "the detail dialog closes", `!document.getElementById('detail').open`)
	b.wantCalm(t)
}
