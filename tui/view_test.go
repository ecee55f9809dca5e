package tui

import (
	"context"
	"image/color"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/crush"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
)

func TestView_list(t *testing.T) {
	t.Run("80x24: active first, most recent next, the selected session's panel collapsed", func(t *testing.T) {
		m := newModel(t, 80, 24, true, fleet()...)
		golden(t, "list_80x24", look(t, m))
	})
	t.Run("200x50: wider columns and a progress bar", func(t *testing.T) {
		m := newModel(t, 200, 50, true, fleet()...)
		golden(t, "list_200x50", look(t, m))
	})
	t.Run("expanded under the list: T", func(t *testing.T) {
		m := newModel(t, 80, 24, true, fleet()...)
		press(m, "T")
		golden(t, "list_expanded_80x24", look(t, m))
	})
	t.Run("filter as you type", func(t *testing.T) {
		m := newModel(t, 80, 24, true, fleet()...)
		press(m, "/")
		typeText(m, "login")
		golden(t, "list_filter_typing", look(t, m))
	})
	t.Run("no history yet: where Tally looks", func(t *testing.T) {
		m := New(context.Background(), Options{Now: func() time.Time { return fixedNow }, Looked: []string{
			"claude   ~/.claude/projects", "codex    ~/.codex/sessions  (not there)"}})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 14})
		golden(t, "list_empty", look(t, m))
	})
	t.Run("help", func(t *testing.T) {
		m := newModel(t, 80, 24, true, fleet()...)
		press(m, "?")
		golden(t, "help_80x24", look(t, m))
	})
}

// panelStates are the Task Panel's states (planning, working, blocked,
// complete, no tasks…), each as a session.
func panelStates() []struct {
	name string
	rec  tally.Record
} {
	blocked := rec("blocked", claude.Agent, home+"/src/api", "Ship it", time.Minute, tally.SignalWorking,
		item("1", "Write the limiter", "", done), item("2", "Review", "", done),
		item("3", "Deploy", "", pending, "4"), item("4", "Get the staging keys", "", tally.StatusBlocked))
	complete := rec("complete", codex.Agent, home+"/src/web", "Tidy up", time.Minute, tally.SignalWaiting)
	complete.Lists = map[string][]tally.Item{"": {item("", "a", "", done), item("", "b", "", done), item("", "c", "", done), item("", "d", "", done), item("", "e", "", done)}}
	return []struct {
		name string
		rec  tally.Record
	}{
		{"planning", rec("tally:release", tally.AgentTally, home+"/src/api", "tasks release (plan, waiting for approval)", time.Minute, tally.SignalAsking,
			item("1", "Tag v2.0", "", pending), item("2", "Publish notes", "", pending))},
		{"no tasks", rec("empty", gemini.Agent, home+"/src/docs", "Just a question", time.Minute, tally.SignalWaiting)},
		{"execution", rec("exec", claude.Agent, home+"/src/api", "Rate limits", time.Minute, tally.SignalWorking,
			item("", "Read the handler", "", done), item("", "Plan the change", "", done), item("", "Write the limiter", "Writing the limiter", doing),
			item("", "Test it", "", pending), item("", "Docs", "", pending), item("", "Changelog", "", pending), item("", "PR", "", pending))},
		{"blocked", blocked},
		{"all complete", complete},
	}
}

// TestView_panelStates draws each state collapsed (one line) and expanded,
// in one file per form so that the states read side by side.
func TestView_panelStates(t *testing.T) {
	for _, expanded := range []bool{false, true} {
		var b strings.Builder
		for _, st := range panelStates() {
			m := newModel(t, 80, 24, true, st.rec)
			if expanded {
				press(m, "T")
			}
			lines := strings.Split(look(t, m), "\n")
			panel := lines[len(lines)-1-len(m.listPanel()) : len(lines)-1]
			b.WriteString("── " + st.name + "\n" + strings.Join(panel, "\n") + "\n")
		}
		name := "panel_collapsed"
		if expanded {
			name = "panel_expanded"
		}
		golden(t, name, b.String())
	}
}

func TestView_collapsedPanelIsOneLine(t *testing.T) {
	for _, st := range panelStates() {
		m := newModel(t, 80, 24, true, st.rec)
		if n := len(m.listPanel()); n != 1 {
			t.Errorf("%s: collapsed panel is %d lines", st.name, n)
		}
	}
}

func TestView_detail(t *testing.T) {
	r := limiter()
	r.Lists["researcher"] = []tally.Item{item("", "Read the RFC", "Reading the RFC", doing), item("", "Summarise", "", pending)}
	r.Lists[tally.RuntimeList] = []tally.Item{
		item("t1", "Read api/handler.go", "", done), item("t2", "Edit api/limiter.go", "", done), item("t3", "Run go test ./api", "", doing)}
	r.Markers = []tally.Marker{{Task: "T003", Step: "S1", Verb: "done"}, {Task: "T003", Step: "S2", Verb: "start"}}
	t.Run("collapsed: sub-agents by name, tool calls apart", func(t *testing.T) {
		m := newModel(t, 80, 24, true, r)
		press(m, "enter")
		golden(t, "detail_collapsed", look(t, m))
	})
	t.Run("expanded: spinner on the step in progress, activeForm below", func(t *testing.T) {
		m := newModel(t, 80, 24, true, r)
		press(m, "enter", "T")
		golden(t, "detail_expanded", look(t, m))
	})
	t.Run("200x50", func(t *testing.T) {
		m := newModel(t, 200, 50, true, r)
		press(m, "enter", "T")
		golden(t, "detail_200x50", look(t, m))
	})
}

// The session's Tally list is drawn under the session's own panel, not
// among its sub-agents.
func TestView_detailShowsTheSessionsTallyListInIt(t *testing.T) {
	r := limiter()
	r.Lists["researcher"] = []tally.Item{item("", "Read the RFC", "Reading the RFC", doing)}
	key := tally.TallyListPrefix + "claude-" + r.ID
	r.Lists[key] = []tally.Item{item("1", "Review the limiter", "", pending)}
	r.Names = map[string]string{key: "Tally list"}
	m := newModel(t, 80, 40, true, r)
	press(m, "enter", "T")
	got := look(t, m)
	tallyAt, subsAt := strings.Index(got, "Tally list"), strings.Index(got, "Sub-agents")
	if tallyAt < 0 || subsAt < 0 || tallyAt > subsAt || !strings.Contains(got, "Review the limiter") {
		t.Errorf("the Tally list at %d, the sub-agents at %d:\n%s", tallyAt, subsAt, got)
	}
}

func TestView_largeList(t *testing.T) {
	t.Run("two columns at 80: completed run summarised, planned items side by side", func(t *testing.T) {
		m := newModel(t, 80, 24, true, large())
		press(m, "enter", "T")
		golden(t, "large_two_columns", look(t, m))
	})
	t.Run("one column when two would not fit", func(t *testing.T) {
		m := newModel(t, 50, 24, true, large())
		press(m, "enter", "T")
		golden(t, "large_one_column", look(t, m))
	})
}

func TestView_noColor(t *testing.T) {
	m := newModel(t, 80, 24, false, fleet()...)
	press(m, "T")
	raw := m.View().Content
	if loc := regexp.MustCompile(`\x1b\[[0-9;:]*m`).FindAllString(raw, -1); len(loc) > 0 {
		for _, sgr := range loc {
			if strings.ContainsAny(strings.Trim(sgr, "\x1b[m"), "3456789") && !isBoldOrReverse(sgr) {
				t.Fatalf("colour sequence %q under NO_COLOR", sgr)
			}
		}
	}
	golden(t, "no_color", look(t, m))
	if !strings.Contains(raw, "\x1b[7m") {
		t.Error("the selected row is not in reverse video: without colour nothing shows the selection")
	}
}

func isBoldOrReverse(sgr string) bool {
	for _, p := range strings.Split(strings.Trim(sgr, "\x1b[m"), ";") {
		switch p {
		case "", "0", "1", "7", "22", "27":
		default:
			return false
		}
	}
	return true
}

// TestView_lightAndDark: the colours follow the background the terminal
// reports; the selection stays readable on either.
func TestView_lightAndDark(t *testing.T) {
	m := newModel(t, 80, 24, true, fleet()...)
	const darkSel, lightSel = "48;2;43;58;85", "48;2;215;227;247"
	if raw := m.View().Content; !strings.Contains(raw, darkSel) {
		t.Errorf("dark selection colour missing before the terminal answered:\n%q", raw)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if raw := m.View().Content; !strings.Contains(raw, lightSel) || strings.Contains(raw, darkSel) {
		t.Error("a light background did not get the light palette")
	}
	golden(t, "list_light_ansi", m.View().Content)
}

// planHeadliner stands for the plan a session follows: its one line as the
// plan words it.
type planHeadliner struct{}

func (planHeadliner) Headline(s *tally.Session) (Headline, bool) {
	if s.ID != limiter().ID {
		return Headline{}, false
	}
	return Headline{State: PanelWorking, Done: 2, Total: 5, Line: "2/5 → T003 [S2]"}, true
}

func TestView_planHeadline(t *testing.T) {
	m := New(context.Background(), Options{Now: func() time.Time { return fixedNow }, Records: fleet(), Headliner: planHeadliner{}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if s := look(t, m); !strings.Contains(s, "2/5 → T003 [S2]") {
		t.Errorf("a plan's headline is not the collapsed panel:\n%s", s)
	}
	press(m, "j")
	if s := look(t, m); !strings.Contains(s, "2/3 ◻ Review") {
		t.Errorf("a session without a plan lost its todo headline:\n%s", s)
	}
}

// A sub-agent is shown by its description, not its hex id; an agent
// whose log shows it had no todo tool says it kept no list.
func TestView_subAgentNameAndNoListTool(t *testing.T) {
	r := limiter()
	r.Lists["a1930ad882c0f656e"] = []tally.Item{item("", "Survey helpers", "", doing)}
	r.Names = map[string]string{"a1930ad882c0f656e": "Audit string helpers"}
	m := newModel(t, 80, 24, false, r)
	press(m, "enter")
	if got := look(t, m); !strings.Contains(got, "↳ Audit string helpers") || strings.Contains(got, "a1930ad") {
		t.Errorf("detail:\n%s", got)
	}

	none := rec("d8a71db1-67ec-4f02-be89-49be6e8c1e8c", claude.Agent, "/home/dev/work", "Say hello", time.Minute, tally.SignalWaiting)
	none.ListTools, none.ListToolsHint = tally.ListToolsNone, "CLAUDE_CODE_ENABLE_TODO_TOOLS=1"
	m = newModel(t, 80, 24, false, none)
	press(m, "enter")
	if got := look(t, m); !strings.Contains(got, "Kept no list: this agent had no todo tool") || strings.Contains(got, "No tasks") {
		t.Errorf("detail of a session without a todo tool:\n%s", got)
	}
}

// A plan proposed for approval is headed by its name, apart from the
// sub-agents.
func TestView_aProposedPlanIsNoSubAgent(t *testing.T) {
	r := limiter()
	r.Lists[tally.ProposalList] = []tally.Item{item("", "Add the handler", "", tally.StatusPending)}
	r.Names = map[string]string{tally.ProposalList: "Plan proposed, awaiting approval"}
	m := newModel(t, 80, 24, false, r)
	press(m, "enter")
	got := look(t, m)
	if !strings.Contains(got, "Plan proposed, awaiting approval 0/1") || strings.Contains(got, "Sub-agents") || !strings.Contains(got, "Add the handler") {
		t.Errorf("detail:\n%s", got)
	}
}

// Three Codex sessions started in the same minute share their first 8
// characters (UUIDv7 ids begin with the time): the list shows each by a
// prefix no other known session shares, and a list of Tally's by its whole
// name.
func TestView_list_idsNoOtherSessionShares(t *testing.T) {
	var recs []tally.Record
	for _, id := range []string{"01a20394-5f3e-7c21-9a0b-0c1d2e3f4a5b", "01a20394-61aa-7d02-8b11-5e6f7a8b9c0d", "01a20394-61ab-7e99-a0c2-1f2e3d4c5b6a"} {
		recs = append(recs, rec(id, codex.Agent, home+"/src/web", "Fix the login", time.Minute, tally.SignalWorking))
	}
	web := rec("tally:web", tally.AgentTally, home+"/src/web", "tasks web", time.Minute, tally.SignalWaiting)
	web.TaskList = &tally.OwnList{Name: "web"}
	recs = append(recs, web)
	m := newModel(t, 120, 12, false, recs...)
	screen := look(t, m)
	for _, want := range []string{"01a20394-5 ", "01a20394-61aa ", "01a20394-61ab ", "tally:web "} {
		if !strings.Contains(screen, "  "+want) && !strings.Contains(screen, "› "+want) {
			t.Errorf("the list does not show %q:\n%s", want, screen)
		}
	}
}

// A session pushed to a team's store says where it came from in its
// detail, and typing the machine's name in the filter finds it.
func TestView_pushedSessionShowsItsOrigin(t *testing.T) {
	r := limiter()
	r.Machine, r.User = "ana-laptop", "ana"
	m := newModel(t, 100, 24, false, r)
	press(m, "enter")
	if got := look(t, m); !strings.Contains(got, "from ana@ana-laptop") {
		t.Errorf("the detail does not say where the session came from:\n%s", got)
	}
	if e := newEntry(r, time.Now(), true); !strings.Contains(e.haystack, "ana-laptop") {
		t.Errorf("the filter cannot find the session by its machine")
	}
}

// flagged are sessions with each flag detection sets, the way the store
// hands them over: needs input from the signal, stalled from StallAt (the
// clock alone sets it), the rest from what detection found.
func flagged() []tally.Record {
	asking := rec("ask-1", claude.Agent, home+"/src/api", "Wire the limiter", 2*time.Minute, tally.SignalAsking,
		item("1", "Write it", "", done), item("2", "Test it", "Testing it", doing))
	looping := rec("loop-1", codex.Agent, home+"/src/web", "Fix the redirect", 30*time.Second, tally.SignalWorking,
		item("", "Patch the middleware", "Patching the middleware", doing), item("", "Add a test", "", pending))
	looping.Flags = tally.Flags{}.With(tally.FlagLooping, fixedNow.Add(-4*time.Minute)).With(tally.FlagNoProgress, fixedNow.Add(-2*time.Minute))
	stalled := rec("stall-1", gemini.Agent, home+"/src/docs", "Draft the guide", 9*time.Minute, tally.SignalWorking,
		item("", "Draft", "Drafting", doing))
	stalled.StallAt = fixedNow.Add(-4 * time.Minute)
	blocked := rec("block-1", claude.Agent, home+"/src/ops", "Deploy", 3*time.Minute, tally.SignalWaiting,
		item("1", "Build", "", done), item("2", "Get the keys", "", tally.StatusBlocked))
	blocked.Flags = tally.Flags{}.With(tally.FlagBlocked, fixedNow.Add(-3*time.Minute))
	finished := rec("done-1", codex.Agent, home+"/src/cli", "Tidy up", 5*time.Minute, tally.SignalWaiting,
		item("", "a", "", done), item("", "b", "", done))
	finished.Flags = tally.Flags{}.With(tally.FlagFinished, fixedNow.Add(-5*time.Minute))
	calm := rec("calm-1", hermes.Agent, home+"/notes", "Plan the offsite", 10*time.Second, tally.SignalWorking,
		item("a", "Book venue", "Booking the venue", doing))
	long := rec("long-1", crush.Agent, home+"/src/game", "Old news", 26*time.Hour, tally.SignalEnded,
		item("", "a", "", done))
	long.Flags = tally.Flags{}.With(tally.FlagFinished, fixedNow.Add(-26*time.Hour))
	return []tally.Record{asking, looping, stalled, blocked, finished, calm, long}
}

func TestView_flags(t *testing.T) {
	t.Run("the list shows a live session's most urgent flag in place of its activity, marked with !; an ended one says ended", func(t *testing.T) {
		m := newModel(t, 80, 24, false, flagged()...)
		s := look(t, m)
		golden(t, "flags_list", s)
		for id, want := range map[string]string{"ask-1": "! input", "loop-1": "! looping+1", "stall-1": "! stalled",
			"block-1": "! blocked", "done-1": "! finished", "calm-1": "working", "long-1": "ended"} {
			if row := lineWith(s, id); !strings.Contains(row, want) {
				t.Errorf("row of %s: %q, want %q in it", id, row, want)
			}
		}
	})
	t.Run("the detail lists every flag with how long it has been so", func(t *testing.T) {
		m := newModel(t, 80, 24, false, flagged()...)
		m.selected = "loop-1"
		press(m, "enter")
		s := look(t, m)
		golden(t, "flags_detail", s)
		if !strings.Contains(s, "! looping for 4m") || !strings.Contains(s, "! no progress for 2m") {
			t.Errorf("the detail does not list the flags:\n%s", s)
		}
	})
	t.Run("a session stalls on screen when its time comes, with no change from the store", func(t *testing.T) {
		now := fixedNow
		r := limiter()
		r.StallAt = fixedNow.Add(90 * time.Second)
		m := New(context.Background(), Options{Now: func() time.Time { return now }, Records: []tally.Record{r}})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		if s := look(t, m); strings.Contains(s, "! stalled") {
			t.Fatalf("stalled before its time:\n%s", s)
		}
		if !m.clockAt.After(fixedNow) || m.clockAt.After(r.StallAt) {
			t.Errorf("clock due at %v, want by %v", m.clockAt, r.StallAt)
		}
		now = r.StallAt
		m.clockAt = now
		m.Update(clockTick{at: now})
		if row := lineWith(look(t, m), "5c0375b4"); !strings.Contains(row, "! stalled") {
			t.Errorf("row after its stall time: %q", row)
		}
	})
}

// lineWith is the first line of s that holds sub.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// In a session's detail, a line meant as a marker that is not one says
// so and why, rather than showing as an empty marker.
func TestDetail_anUnrecognisedMarkerSaysItIsNotOne(t *testing.T) {
	m := tally.Marker{Line: "Progress: T001.S2 finished", Reason: `"finished" is not an action`}
	if got, want := markerLine(m), `  ? Progress: T001.S2 finished — not a marker: "finished" is not an action`; got != want {
		t.Fatalf("markerLine = %q, want %q", got, want)
	}
}
