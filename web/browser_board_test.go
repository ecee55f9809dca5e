package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tallyhq/tally/agents"
)

// The board's cards as a person reads them: one time per card, a name for
// every session, the sessions without a list kept out of the way.

const (
	todowriteProject = "-tmp-capture-cc-todowrite-work"
	todowriteSession = "bfd476f6-2564-4246-aaa4-e4c25c7ee9b5"
	partialProject   = "-tmp-capture-cc-tasks-partial-work"
	partialSession   = "01f2d5fa-d5e7-4c57-9a74-ff1775518a78"
	noTodoProject    = "-tmp-capture-cc-default-model-no-todo-tools-work"
	noTodoSession    = "d8a71db1-67ec-4f02-be89-49be6e8c1e8c"
	// geminiUntitled is the chat Gemini CLI opened over ACP before the
	// prompt went to another: it holds only the CLI's own context message,
	// so it has no title and no list.
	geminiUntitled = "../testdata/fixtures/captured/gemini-cli-0.61.0/acp-write-todos/gemini_home/tmp/work/chats/session-2026-11-22T14-06-9c0645f5.jsonl"
)

// writeAged writes lines to path with their clock moved so that the newest
// of them was written age ago, keeping the agent's own spacing.
func writeAged(t *testing.T, path string, lines []string, age time.Duration) {
	t.Helper()
	var last time.Time
	for _, l := range lines {
		for _, m := range dashTimes.FindAllStringSubmatch(l, -1) {
			if at, err := time.Parse(time.RFC3339Nano, m[2]); err == nil && at.After(last) {
				last = at
			}
		}
	}
	if last.IsZero() {
		t.Fatalf("%s: no timestamp in the lines", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	dashAppend(t, path, shiftAll(t, lines, time.Since(last)-age))
}

// wantOneTime checks that a card names its activity in words alone and
// shows exactly one time, the one timer matches.
func wantOneTime(t *testing.T, c cardView, state, timer string) {
	t.Helper()
	if c.State != state {
		t.Errorf("state reads %q, want %q with no time beside it", c.State, state)
	}
	if !regexp.MustCompile(timer).MatchString(c.Timer) {
		t.Errorf("timer reads %q, want %s", c.Timer, timer)
	}
}

func stepIdleCard(t *testing.T, b *browser, srv *serveProc) {
	// The todowrite capture up to the result of its second TodoWrite (line
	// 43): mid-turn, so the session works until two minutes of silence make
	// it idle; its newest line is five and a half minutes old (the page's
	// clock may trail the server's by a moment). Its lines are half a second
	// apart, so a card that showed both the run and the silence showed the
	// same time twice.
	lines := dashReadLines(t, filepath.Join(captureRoot, "todowrite/config/projects", todowriteProject, todowriteSession+".jsonl"))
	writeAged(t, filepath.Join(srv.claude, "projects", todowriteProject, todowriteSession+".jsonl"), lines[:43], 5*time.Minute+30*time.Second)
	c := b.waitCardWhere(t, todowriteSession, `c.column === 'idle'`)
	wantOneTime(t, c, "Idle", `^silent 5m \d\ds$`)
}

func stepEndedCard(t *testing.T, b *browser, srv *serveProc) {
	// The whole tasks-partial capture, its last line two and a half hours
	// old (the page's clock may trail the server's by a moment): the
	// run took under a second, which an ended card showed as "0s".
	lines := dashReadLines(t, filepath.Join(captureRoot, "tasks-partial/config/projects", partialProject, partialSession+".jsonl"))
	writeAged(t, filepath.Join(srv.claude, "projects", partialProject, partialSession+".jsonl"), lines, 2*time.Hour+30*time.Minute)
	c := b.waitCardWhere(t, partialSession, `c.column === 'ended'`)
	wantOneTime(t, c, "Ended", `^ended 2h \d\dm ago$`)
}

func stepWithoutList(t *testing.T, b *browser, srv *serveProc) {
	// Claude Code's default model was offered no todo tools: that session
	// never had a list, nor has Gemini's context-only chat.
	lines := dashReadLines(t, filepath.Join(captureRoot, "default-model-no-todo-tools/config/projects", noTodoProject, noTodoSession+".jsonl"))
	writeAged(t, filepath.Join(srv.claude, "projects", noTodoProject, noTodoSession+".jsonl"), lines, time.Minute)
	writeAged(t, filepath.Join(srv.home, "gemini/tmp/work/chats", filepath.Base(geminiUntitled)), dashReadLines(t, geminiUntitled), time.Minute)

	b.poll(t, "both sessions are on the board", `document.querySelectorAll('.card[data-agent="gemini"]').length === 1 &&
		!!document.querySelector('.card[data-id="`+noTodoSession+`"]')`)
	// Its badge has the hue the registration gives Gemini CLI, served in
	// the page's data block.
	if hue, want := b.eval(t, `document.querySelector('.card[data-agent="gemini"] .agent').style.getPropertyValue('--hue')`),
		fmt.Sprint(agents.Find("gemini").Hue); hue != want {
		t.Errorf("the Gemini CLI card's hue is %q, want %s", hue, want)
	}
	gemini := b.eval(t, `document.querySelector('.card[data-agent="gemini"]').dataset.id`)
	b.poll(t, "the filter counts them", `document.getElementById('nolist-count').textContent === '2'`)
	// The board shows every session unless asked otherwise: a box that
	// hid sessions while unticked read backwards, and made a column's
	// count (a machine's, on a team's board) less than its sessions.
	if b.eval(t, `String(document.getElementById('f-nolist').checked)`) != "false" {
		t.Error("the box that hides sessions without a list starts ticked")
	}
	if label := b.eval(t, `document.getElementById('f-nolist').closest('label').textContent.trim()`); !strings.HasPrefix(label, "Hide those without a list") {
		t.Errorf("the box reads %q: it does not say it hides", label)
	}
	b.waitCardWhere(t, noTodoSession, `c.visible && c.title === 'Say hello'`)
	if c := b.waitCardWhere(t, gemini, `c.visible`); c.Title != "(untitled)" {
		t.Errorf("a session with no title reads %q, want (untitled) as the CLI says", c.Title)
	}
	b.do(t, chromedp.Click(chromedp.ID("f-nolist")))
	b.waitCardWhere(t, gemini, `!c.visible`)
	b.waitCardWhere(t, noTodoSession, `!c.visible`)
	if got := b.eval(t, `document.getElementById('nolist-count').textContent`); got != "2" {
		t.Errorf("with the box ticked the count reads %q, want 2", got)
	}
	b.do(t, chromedp.Click(chromedp.ID("f-nolist")))
	b.waitCardWhere(t, gemini, `c.visible`)
}

// stepNoTodoTool: the session of Claude Code's default model, whose log
// shows it was offered no todo tool, says on its card that it kept no list
// and, in the card's hint, how to give it one — not that a list is coming.
func stepNoTodoTool(t *testing.T, b *browser) {
	b.waitCardWhere(t, noTodoSession, `c.visible`)
	sel := `.card[data-id="` + noTodoSession + `"]`
	if got := b.eval(t, `document.querySelector('`+sel+` .spinner-text').textContent`); got != "Kept no list: this agent had no todo tool" {
		t.Errorf("the card reads %q", got)
	}
	if hint := b.eval(t, `document.querySelector('`+sel+` .spinner-row').title`); !strings.Contains(hint, "CLAUDE_CODE_ENABLE_TODO_TOOLS=1") {
		t.Errorf("the card's hint %q does not say how to give the agent a todo tool", hint)
	}
}

// wantDetailWords checks the open detail reads in words: no wire word
// such as in_progress, no "file(s)".
func wantDetailWords(t *testing.T, b *browser, wantMeta string) {
	t.Helper()
	metas, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#detail .detail-items .item-meta')].map(e => e.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(metas, wantMeta) {
		t.Errorf("detail item facts %q lack %q", metas, wantMeta)
	}
	for _, m := range metas {
		if strings.Contains(m, "_") {
			t.Errorf("detail item facts %q hold a wire word", m)
		}
	}
	if facts := b.eval(t, `document.querySelector('#detail .facts').textContent`); strings.Contains(facts, "(s)") {
		t.Errorf("detail facts read %q", facts)
	}
}

// A board of its own: sessions whose ids share their first 8 characters,
// and a task list two sessions share.
func TestDashboard_Browser_IdsAndASharedTaskList(t *testing.T) {
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
			b.shot(t, "dashboard-ids-failure.png")
		}
	})

	// Two sessions started in the same minute: UUIDv7 ids (Codex's) share
	// their first 8 characters, which named neither. The todowrite capture
	// stands for both.
	sameMinute := []string{"01a20394-5f3e-7c21-9a0b-0c1d2e3f4a5b", "01a20394-61aa-7d02-8b11-5e6f7a8b9c0d"}
	lines := dashReadLines(t, filepath.Join(captureRoot, "todowrite/config/projects", todowriteProject, todowriteSession+".jsonl"))
	writeAged(t, filepath.Join(srv.claude, "projects", todowriteProject, sameMinute[0]+".jsonl"), lines, time.Minute)
	c := b.waitCardWhere(t, sameMinute[0], `c.sid !== ''`)
	if c.Sid != sameMinute[0][:8] {
		t.Errorf("alone on the board, the session reads %q, want its first 8 characters", c.Sid)
	}
	writeAged(t, filepath.Join(srv.claude, "projects", todowriteProject, sameMinute[1]+".jsonl"), lines, time.Minute)
	b.waitCardWhere(t, sameMinute[1], `c.sid === '01a20394-6'`)
	b.waitCardWhere(t, sameMinute[0], `c.sid === '01a20394-5'`)

	// Two sessions sharing one task list (CLAUDE_CODE_TASK_LIST_ID): the
	// list is one card, named whole, as its files are; each session says
	// where its tasks are rather than showing a copy of them.
	const sharedSlug, lead = "-tmp-capture-ccfiles-cc-tasks-shared-work", "3942d508-706d-4330-9dff-974fc3295123"
	src := filepath.Join(captureRoot, "tasks-shared/config")
	shift := shiftFor(t, dashReadLines(t, filepath.Join(src, "projects", sharedSlug, lead+".jsonl"))[0])
	copySession(t, filepath.Join(src, "tasks"), filepath.Join(srv.claude, "tasks"), 0)
	copySession(t, filepath.Join(src, "projects", sharedSlug), filepath.Join(srv.claude, "projects", sharedSlug), shift)
	c = b.waitCardWhere(t, "greet-team", `c.visible && c.count === '3/4'`)
	if c.Sid != "greet-team" || c.Title != "Task list greet-team" {
		t.Errorf("shared list card: id %q title %q", c.Sid, c.Title)
	}
	b.waitCardWhere(t, lead, `c.visible && c.spinner === 'Tasks in the shared list greet-team' && c.count === ''`)
	b.do(t, chromedp.Click(chromedp.CSS(cardSel("greet-team")+" .title")))
	b.poll(t, "the detail dialog opens", `document.getElementById('detail').open`)
	b.poll(t, "the detail names the sessions sharing the list",
		`document.querySelector('#detail [data-fact="writers"]')?.textContent.includes('`+lead+`')`)
}
