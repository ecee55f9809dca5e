package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
)

// rowTitles are the titles of the list's rows, in order.
func rowTitles(m *Model) []string {
	var out []string
	for _, e := range m.roster.rows() {
		out = append(out, e.rec.Title)
	}
	return out
}

func TestModel_order(t *testing.T) {
	m := newModel(t, 80, 24, false, fleet()...)
	got := rowTitles(m)
	// Not ended first (claude 20s, gemini 40s, tally 3m, codex 4m), then
	// ended ones, each part most recent first.
	want := []string{"Add a rate limiter to the API", "Rewrite the getting-started guide",
		"tasks release (plan, waiting for approval)", "Fix the login redirect loop",
		"Plan the offsite", "Migrate CI to the new runners", "Explain the physics loop"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("order\n got %q\nwant %q", got, want)
	}
	press(m, "s") // most recent: the same here, ended or not
	press(m, "s") // by project
	if got := rowTitles(m)[0]; got != "Plan the offsite" {
		t.Errorf("by project, first is %q, want ~/notes", got)
	}
}

// TestModel_projectsAreNamedAsTheOtherSurfacesDo: ten projects all
// ending in "work" are told apart by as many trailing parts as it takes,
// not all shown as "…/work".
func TestModel_projectsAreNamedAsTheOtherSurfacesDo(t *testing.T) {
	var recs []tally.Record
	for i := range 10 {
		recs = append(recs, rec(fmt.Sprintf("0000000%d-s", i), claude.Agent, fmt.Sprintf("/tmp/capture-cc-scenario%d/work", i),
			"Task", time.Duration(i)*time.Second, tally.SignalWorking))
	}
	m := newModel(t, 120, 24, false, recs...)
	screen := look(t, m)
	for i := range 10 {
		if want := fmt.Sprintf("…/capture-cc-scenario%d/work", i); !strings.Contains(screen, want) {
			t.Errorf("missing %q:\n%s", want, screen)
		}
	}
}

func TestModel_keys(t *testing.T) {
	t.Run("j and k move, and the panel follows the selection", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		press(m, "j")
		if !strings.Contains(look(t, m), "2/3 ◻ Review") {
			t.Errorf("panel of the second session not shown:\n%s", look(t, m))
		}
		press(m, "k", "k")
		if m.selected != limiter().ID {
			t.Errorf("selected %q", m.selected)
		}
	})
	t.Run("filter as you type; Enter keeps it, Esc clears it", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		press(m, "/")
		typeText(m, "REDIRECT loop")
		if got := rowTitles(m); len(got) != 1 || got[0] != "Fix the login redirect loop" {
			t.Fatalf("rows %q", got)
		}
		press(m, "enter")
		if m.bar.editing || len(rowTitles(m)) != 1 {
			t.Fatal("Enter did not keep the filter")
		}
		press(m, "q") // no longer typing: q is not text
		press(m, "esc")
		if n := len(rowTitles(m)); n != 7 {
			t.Errorf("after Esc %d rows, want all 7", n)
		}
	})
	t.Run("q while typing a filter is text, not quit", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		press(m, "/")
		if _, cmd := m.Update(keyMsg("q")); cmd != nil && isQuit(cmd) {
			t.Fatal("q quit while typing")
		}
		if m.bar.text != "q" {
			t.Errorf("filter %q", m.bar.text)
		}
	})
	t.Run("a cycles agents, p projects, back to all", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		press(m, "a")
		if f := m.roster.filter.Agent; f != claude.Agent {
			t.Errorf("first agent %q", f)
		}
		for range 7 {
			press(m, "a")
		}
		if f := m.roster.filter.Agent; f != "" {
			t.Errorf("after a full cycle agent %q, want all", f)
		}
		press(m, "p")
		if f := m.roster.filter.Project; f != home+"/src/api" {
			t.Errorf("first project %q, want the most recently active", f)
		}
		if n := len(rowTitles(m)); n != 2 {
			t.Errorf("%d sessions in ~/src/api, want 2", n)
		}
	})
	t.Run("p cycles only the projects the agent filter shows", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		press(m, "a", "a") // codex: one session, in ~/src/web
		if f := m.roster.filter.Agent; f != codex.Agent {
			t.Fatalf("second agent %q", f)
		}
		press(m, "p")
		if f := m.roster.filter.Project; f != home+"/src/web" {
			t.Errorf("first project with the codex filter %q, want ~/src/web", f)
		}
		if n := len(rowTitles(m)); n != 1 {
			t.Errorf("%d shown", n)
		}
		press(m, "p")
		if f := m.roster.filter.Project; f != "" {
			t.Errorf("after codex's only project, %q; want all", f)
		}
	})
	t.Run("Enter opens, T expands, Esc collapses, Esc goes back", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		press(m, "enter")
		if m.screen != screenDetail {
			t.Fatal("Enter did not open the session")
		}
		press(m, "T")
		if !m.expanded {
			t.Fatal("T did not expand")
		}
		press(m, "esc")
		if m.expanded || m.screen != screenDetail {
			t.Fatal("Esc did not collapse first")
		}
		press(m, "esc")
		if m.screen != screenList {
			t.Fatal("second Esc did not go back")
		}
	})
	t.Run("q and Ctrl-C quit", func(t *testing.T) {
		for _, k := range []string{"q", "ctrl+c"} {
			m := newModel(t, 80, 24, false, fleet()...)
			if _, cmd := m.Update(keyMsg(k)); !isQuit(cmd) {
				t.Errorf("%s does not quit", k)
			}
		}
	})
}

// isQuit runs cmd (a batch is opened) and tells whether it quits.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if c != nil {
				if _, ok := c().(tea.QuitMsg); ok {
					return true
				}
			}
		}
	}
	return false
}

func TestModel_mouse(t *testing.T) {
	m := newModel(t, 80, 24, false, fleet()...)
	m.Update(tea.MouseClickMsg{X: 10, Y: listTop + 3, Button: tea.MouseLeft})
	if m.selected != "0199a1b2-codex-4c1d" {
		t.Fatalf("click on the fourth row selected %q", m.selected)
	}
	y, _ := m.toggleRow()
	m.Update(tea.MouseClickMsg{X: 78, Y: y, Button: tea.MouseLeft})
	if !m.expanded {
		t.Fatal("click on [T] did not expand")
	}
	if !strings.Contains(look(t, m), "Tasks 1/3") {
		t.Error("expanded panel not drawn")
	}
	m.Update(tea.MouseClickMsg{X: 10, Y: listTop + 3, Button: tea.MouseLeft})
	if m.screen != screenDetail {
		t.Error("click on the selected row did not open it")
	}
}

func TestModel_resize(t *testing.T) {
	m := newModel(t, 80, 24, false, fleet()...)
	for _, size := range [][2]int{{40, 10}, {200, 50}, {20, 5}, {80, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		press(m, "T")
		look(t, m) // fits, without wrapping, at every size
	}
}

func TestModel_ticks(t *testing.T) {
	t.Run("the spinner ticks only while a working session's step is in progress and shown", func(t *testing.T) {
		m := newModel(t, 80, 24, false, fleet()...)
		if m.spinPending {
			t.Fatal("spinner scheduled with the panel collapsed")
		}
		press(m, "T")
		if !m.spinPending {
			t.Fatal("no spinner tick for a working session's expanded step")
		}
		frame := m.spinFrame
		m.Update(spinTick{})
		if m.spinFrame == frame || !m.spinPending {
			t.Error("the spinner did not turn and go on")
		}
		press(m, "j") // gemini: waiting for the user, nothing in progress
		m.Update(spinTick{})
		if m.spinPending {
			t.Error("spinner still ticking with nothing in progress")
		}
	})
	t.Run("a stalled step does not spin", func(t *testing.T) {
		r := limiter()
		r.LastActivity = fixedNow.Add(-10 * time.Minute) // idle
		m := newModel(t, 80, 24, false, r)
		press(m, "T")
		if m.spinPending {
			t.Error("spinner ticking for an idle session")
		}
	})
	t.Run("the clock wakes the model when the next shown age changes, not before", func(t *testing.T) {
		old := rec("old", codex.Agent, "/p", "Long ago", 3*24*time.Hour+5*time.Hour, tally.SignalEnded)
		m := newModel(t, 80, 24, false, old)
		want := fixedNow.Add(19 * time.Hour) // "3d" turns "4d"
		if !m.clockAt.Equal(want) {
			t.Errorf("clock due %v, want %v", m.clockAt, want)
		}
		m2 := newModel(t, 80, 24, false, limiter())
		if d := m2.clockAt.Sub(fixedNow); d != time.Second {
			t.Errorf("clock due in %v for a 20s old session, want 1s", d)
		}
	})
	t.Run("an activity the clock changes is re-derived at its time", func(t *testing.T) {
		now := fixedNow
		r := limiter()
		m := New(context.Background(), Options{Now: func() time.Time { return now }, Records: []tally.Record{r}})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		now = r.LastActivity.Add(tally.IdleAfter + time.Second)
		m.clockAt = now
		m.Update(clockTick{at: now})
		if got := m.roster.byID[r.ID].act; got != tally.ActivityIdle {
			t.Errorf("activity %v after %v of silence, want idle", got, tally.IdleAfter)
		}
	})
}

func TestModel_changes(t *testing.T) {
	m := newModel(t, 80, 24, false, fleet()...)
	r := limiter()
	r.Lists[""][1].Status = done
	r.Lists[""][2] = item("3", "Add auth", "Adding auth", doing)
	m.Update(Changed{Updated: []tally.Record{r}, Removed: []string{"crush-42"}})
	s := look(t, m)
	if !strings.Contains(s, "2/4 ◼ Adding auth") {
		t.Errorf("the change is not on screen:\n%s", s)
	}
	if strings.Contains(s, "physics") {
		t.Error("the removed session is still listed")
	}
	// A store read that began before the change must not undo it, nor
	// bring back what the stream removed.
	m.Update(loaded{recs: fleet()})
	s = look(t, m)
	if !strings.Contains(s, "2/4 ◼ Adding auth") || strings.Contains(s, "physics") {
		t.Errorf("a stale load overrode the stream:\n%s", s)
	}
}

func TestModel_approve(t *testing.T) {
	var got string
	m := New(context.Background(), Options{
		Now: func() time.Time { return fixedNow }, Records: fleet(),
		Approve: func(_ context.Context, list string) error { got = list; return nil },
	})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, cmd := m.Update(keyMsg("A")); cmd != nil {
		if msg := cmd(); msg != nil {
			if _, ok := msg.(approved); ok {
				t.Fatal("A approved a session that is not a plan")
			}
		}
	}
	press(m, "j", "j") // tally:release
	_, cmd := m.Update(keyMsg("A"))
	msg := runAll(cmd)
	if got != "release" {
		t.Fatalf("approved %q, want release", got)
	}
	m.Update(msg)
	if !strings.Contains(look(t, m), "release approved") {
		t.Error("approval not confirmed on screen")
	}
	m.Update(approved{list: "release", err: errors.New("no task list")})
	if !strings.Contains(look(t, m), "approve release: no task list") {
		t.Error("a failed approval is not shown")
	}
}

// runAll runs cmd and returns the first message that is not a tick.
func runAll(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c == nil {
				continue
			}
			done := make(chan tea.Msg, 1)
			go func() { done <- c() }()
			select {
			case m := <-done:
				if _, tick := m.(clockTick); !tick {
					return m
				}
			case <-time.After(200 * time.Millisecond): // a tick's timer
			}
		}
		return nil
	}
	return msg
}

func TestFeed(t *testing.T) {
	b := broker.New[index.Change]()
	sub := b.Subscribe(16)
	a, c := limiter(), large()
	b.Publish(index.Change{Kind: index.SessionUpdated, ID: a.ID, Record: a})
	b.Publish(index.Change{Kind: index.SessionRemoved, ID: "gone"})
	a2 := a
	a2.Title = "renamed"
	b.Publish(index.Change{Kind: index.SessionUpdated, ID: a.ID, Record: a2})
	b.Publish(index.Change{Kind: index.SessionUpdated, ID: c.ID, Record: c})
	got := make(chan tea.Msg, 4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Feed(ctx, func(m tea.Msg) { got <- m }, sub); close(done) }()
	msg := (<-got).(Changed)
	if len(msg.Updated) != 2 || msg.Updated[0].Title != "renamed" || len(msg.Removed) != 1 {
		t.Errorf("a burst is one Changed with each session's last word: %+v", msg)
	}
	cancel()
	<-done
}

// TestModel_clickTaskRow: a click on a task row of the expanded panel shows
// the task in full; in two columns, the column clicked decides which.
func TestModel_clickTaskRow(t *testing.T) {
	r := limiter()
	r.Lists[""][3].Description = "Run the suite against staging.\nNeeds the keys from ops."
	m := newModel(t, 80, 24, false, r)
	press(m, "enter", "T")
	y := lineOf(t, look(t, m), "Integration tests")
	m.Update(tea.MouseClickMsg{X: 4, Y: y, Button: tea.MouseLeft})
	s := look(t, m)
	golden(t, "detail_task", s)
	for _, want := range []string{"Task #4", "blocked by: Add auth", "Needs the keys from ops."} { // the blocker named, not numbered
		if !strings.Contains(s, want) {
			t.Errorf("task detail lacks %q", want)
		}
	}
	press(m, "esc")
	if m.item != -1 || !m.expanded {
		t.Error("Esc did not close the task first")
	}

	m = newModel(t, 80, 24, false, large())
	press(m, "enter", "T")
	y = lineOf(t, look(t, m), "T010 Analytics")
	m.Update(tea.MouseClickMsg{X: 50, Y: y, Button: tea.MouseLeft})
	if !strings.Contains(look(t, m), "Task T010") {
		t.Errorf("click on the right column did not show T010:\n%s", look(t, m))
	}
	m.Update(tea.MouseClickMsg{X: 50, Y: y, Button: tea.MouseLeft})
	if m.item != -1 {
		t.Error("a second click did not close the task")
	}
}

// lineOf is the screen row holding text.
func lineOf(t *testing.T, screen, text string) int {
	t.Helper()
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return i
		}
	}
	t.Fatalf("%q not on screen:\n%s", text, screen)
	return -1
}

// A session whose agent asks its user shows the request in its detail with
// the keys that answer it; y, Y and n answer it there, and only there.
func TestModel_decideARequestFromTheDetail(t *testing.T) {
	recs := fleet()
	for i := range recs {
		recs[i].Requests = []tally.Request{{ID: "r1", Session: recs[i].ID, Tool: "Bash", Summary: "echo \x1b[31mx > proof.txt", Always: true,
			AskedAt: fixedNow.Add(-12 * time.Second), ExpiresAt: fixedNow.Add(time.Minute)}}
	}
	var got []string
	m := New(context.Background(), Options{
		Now: func() time.Time { return fixedNow }, Records: recs,
		Decide: func(_ context.Context, session string, v tally.Verdict) (tally.Request, error) {
			got = append(got, session+" "+string(v))
			return recs[0].Requests[0], nil
		},
	})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "j")
	id := m.selected
	if msg := runAll(m.decide(tally.VerdictAllow)); msg != nil {
		t.Fatal("y answered from the list: it answers only in the open session")
	}
	press(m, "enter")
	s := look(t, m)
	if !strings.Contains(s, "? Bash: echo") || !strings.Contains(s, "waiting 12s · y allow · Y always · n deny") || strings.Contains(s, "\x1b[31mx") {
		t.Fatalf("the detail does not show the request and its keys:\n%s", s)
	}
	for _, k := range []string{"y", "Y", "n"} {
		_, cmd := m.Update(keyMsg(k))
		m.Update(runAll(cmd))
	}
	want := []string{id + " allow", id + " always", id + " deny"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("decided %v, want %v", got, want)
	}
	if !strings.Contains(look(t, m), "Bash: denied") {
		t.Error("the decision is not confirmed on screen")
	}
	if !strings.Contains(strings.Join(helpLines(&m.pal, 100), "\n"), "A  y Y n") {
		t.Error("help does not list the keys")
	}
}
