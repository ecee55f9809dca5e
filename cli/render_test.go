package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/termstyle"
)

func item(id, title, active string, st tally.Status, blockedBy ...string) tally.Item {
	return tally.Item{ID: id, Title: title, ActiveForm: active, Status: st, BlockedBy: blockedBy, Source: tally.SourceTask}
}

// exampleRecord is a session mid-way through its list: 1 done, 1 in
// progress, 1 blocked by the one in progress, 2 pending.
func exampleRecord() tally.Record {
	return tally.Record{
		ID: "7c1e2a90-1b2c-4d5e-8f90-123456789abc", Agent: claude.Agent,
		Project: testHome + "/src/shop", Title: "Build the orders API",
		StartedAt: fixedNow.Add(-20 * time.Minute), LastActivity: fixedNow.Add(-40 * time.Second),
		Signal: tally.SignalWorking,
		Lists: map[string][]tally.Item{"": {
			item("1", "Set up database", "Setting up database", tally.StatusCompleted),
			item("2", "Create API endpoints", "Creating API endpoints", tally.StatusInProgress),
			item("3", "Integration tests", "Running integration tests", tally.StatusPending, "2"),
			item("4", "Add auth", "Adding auth", tally.StatusPending),
			item("5", "Write README", "Writing README", tally.StatusPending),
		}},
	}
}

func renderShow(t *testing.T, r tally.Record, o ShowOptions) string {
	t.Helper()
	o.Now, o.Home = fixedNow, testHome
	var b strings.Builder
	if err := RenderShow(&b, r.Session(fixedNow), o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRenderShow(t *testing.T) {
	t.Run("compact", func(t *testing.T) {
		got := renderShow(t, exampleRecord(), ShowOptions{})
		golden(t, "show_compact", got)
		// An item in progress shows its activeForm, completed items fold
		// into one closing row.
		for _, want := range []string{"◼ Creating API endpoints", "▸ Integration tests  (blocked by Create API endpoints)", "◻ Add auth", "◻ Write README", "… +1 done", "working · 1/5 done"} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
		if strings.Contains(got, "Set up database") {
			t.Errorf("completed item shown in compact mode:\n%s", got)
		}
	})
	t.Run("the session's Tally list is shown in it, not as a sub-agent's", func(t *testing.T) {
		r := exampleRecord()
		key := "tally:claude-" + r.ID
		r.Lists[key] = []tally.Item{item("1", "Review the greeting", "Reviewing", tally.StatusPending)}
		r.Names = map[string]string{key: "Tally list"}
		got := renderShow(t, r, ShowOptions{})
		if !strings.Contains(got, "Tally list claude-"+r.ID+" 0/1") || !strings.Contains(got, "◻ Review the greeting") || strings.Contains(got, "Sub-agent") {
			t.Errorf("got\n%s", got)
		}
	})
	t.Run("full", func(t *testing.T) {
		got := renderShow(t, exampleRecord(), ShowOptions{Full: true})
		golden(t, "show_full", got)
		if !strings.Contains(got, "✓ Set up database") || strings.Contains(got, "+1 done") {
			t.Errorf("full mode must list the completed item instead of folding it:\n%s", got)
		}
	})
	t.Run("every status and sub-agents", func(t *testing.T) {
		r := exampleRecord()
		r.Signal = tally.SignalWaiting
		r.Lists[""] = []tally.Item{
			item("1", "Drop legacy table", "", tally.StatusCancelled),
			item("2", "Run migration", "", tally.StatusFailed),
			{Title: "Review the PR", Status: tally.StatusUnknown, RawStatus: "needs_review"},
			item("4", "Ask for access", "", tally.StatusBlocked),
			item("5", "Ship", "", tally.StatusCompleted),
		}
		r.Lists["a1930ad882c0f656e"] = []tally.Item{
			item("", "List helper files", "Listing helper files", tally.StatusInProgress),
			item("", "Read greet.py", "", tally.StatusCompleted),
		}
		got := renderShow(t, r, ShowOptions{})
		golden(t, "show_statuses", got)
		for _, want := range []string{"✗ Run migration  (failed)", "? Review the PR  (needs_review)", "▸ Ask for access  (blocked)", "… +1 done, +1 cancelled", "needs input", "Sub-agent a1930ad882c0f656e 1/2", "◼ Listing helper files"} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
	})
	t.Run("a proposed plan is headed by its name, not as a sub-agent", func(t *testing.T) {
		r := exampleRecord()
		r.Lists[tally.ProposalList] = []tally.Item{item("", "Add the handler", "", tally.StatusPending)}
		r.Names = map[string]string{tally.ProposalList: "Plan proposed, awaiting approval"}
		got := renderShow(t, r, ShowOptions{})
		if !strings.Contains(got, "Plan proposed, awaiting approval 0/1") || strings.Contains(got, "Sub-agent Plan") {
			t.Errorf("want the proposal headed by its name:\n%s", got)
		}
	})
	t.Run("narrow terminal truncates with an ellipsis", func(t *testing.T) {
		got := renderShow(t, exampleRecord(), ShowOptions{Width: 24})
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if w := termstyle.Width(l); w > 24 {
				t.Errorf("line %q is %d columns wide, over 24", l, w)
			}
		}
		if !strings.Contains(got, "◼ Creating API endpoi…") {
			t.Errorf("in-progress line not cut with an ellipsis:\n%s", got)
		}
	})
	t.Run("colour only when asked", func(t *testing.T) {
		if got := renderShow(t, exampleRecord(), ShowOptions{}); strings.Contains(got, "\x1b[") {
			t.Errorf("escape codes in plain output:\n%q", got)
		}
		if got := renderShow(t, exampleRecord(), ShowOptions{Color: true}); !strings.Contains(got, "\x1b[33m◼\x1b[0m") {
			t.Errorf("in-progress icon not amber:\n%q", got)
		}
	})
	t.Run("no list yet", func(t *testing.T) {
		r := exampleRecord()
		r.Lists = nil
		if got := renderShow(t, r, ShowOptions{}); !strings.Contains(got, "No todo list yet.") {
			t.Errorf("got\n%s", got)
		}
	})
}

func sessionsFixture() []tally.Session {
	a := exampleRecord()
	b := tally.Record{
		ID: "e277426f-1861-4a5b-b21f-e5791c308bc2", Agent: codex.Agent,
		Project: "/srv/checkouts/very-long-organisation-name/payments-service", Title: "Audit the string helpers in this directory using a subagent, and track the work",
		LastActivity: fixedNow.Add(-3 * time.Hour), Signal: tally.SignalWorking,
		Lists: map[string][]tally.Item{"": {item("1", "Audit", "", tally.StatusCompleted), item("2", "Summarise", "", tally.StatusCompleted)}},
	}
	c := tally.Record{
		ID: "01f2d5fa-d5e7-4c57-9a74-ff1775518a78", Agent: gemini.Agent, Project: testHome,
		LastActivity: fixedNow.Add(-5 * time.Minute), Signal: tally.SignalWaiting,
	}
	return []tally.Session{a.Session(fixedNow), c.Session(fixedNow), b.Session(fixedNow)}
}

func TestRenderSessions(t *testing.T) {
	render := func(o TableOptions) string {
		o.Now, o.Home = fixedNow, testHome
		var b strings.Builder
		if err := RenderSessions(&b, sessionsFixture(), o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	t.Run("terminal", func(t *testing.T) {
		got := render(TableOptions{Terminal: true, Width: 120})
		golden(t, "sessions_terminal", got)
		for _, want := range []string{"~/src/shop", "40s ago", "5m ago", "3h ago", "1/5", "Creating API endpoints", "needs input", "…/payments-service"} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if termstyle.Width(l) > 120 {
				t.Errorf("row over 120 columns: %q", l)
			}
		}
	})
	t.Run("the plans of the listed projects follow the table", func(t *testing.T) {
		got := render(TableOptions{Terminal: true, Width: 120, Plans: map[string]string{testHome + "/src/shop": "2/5 → T003 [S2]"}})
		if !strings.HasSuffix(got, "\n\nplan  ~/src/shop  2/5 → T003 [S2]\n") {
			t.Errorf("got\n%s", got)
		}
		if piped := render(TableOptions{Plans: map[string]string{testHome + "/src/shop": "2/5 → T003 [S2]"}}); strings.Contains(piped, "plan") {
			t.Errorf("a pipe's rows got a plan line:\n%s", piped)
		}
	})
	fits := func(t *testing.T, got string, width int) {
		t.Helper()
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if w := termstyle.Width(l); w > width {
				t.Errorf("row of %d columns wraps on a %d-column terminal: %q", w, width, l)
			}
		}
	}
	t.Run("narrow terminal cuts the title, not the facts", func(t *testing.T) {
		got := render(TableOptions{Terminal: true, Width: 90})
		golden(t, "sessions_narrow", got)
		fits(t, got, 90)
		if !strings.Contains(got, "Audit the s") || !strings.Contains(got, "…") || !strings.Contains(got, "2/2") {
			t.Errorf("got\n%s", got)
		}
	})
	t.Run("nothing wraps at 80 columns: the step column gives way", func(t *testing.T) {
		got := render(TableOptions{Terminal: true, Width: 80, Color: true})
		golden(t, "sessions_80", termstyle.Strip(got))
		fits(t, got, 80)
		for _, want := range []string{"ACTIVITY", "needs input", "1/5", "40s ago", "Build the orders"} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
		if strings.Contains(got, "STEP") {
			t.Errorf("the step column squeezed in:\n%s", got)
		}
	})
	t.Run("a session's Tally list takes no more room at 80 columns than a session", func(t *testing.T) {
		list := sessionsFixture()
		r := exampleRecord()
		r.ID, r.Agent, r.Title = "tally:claude-"+list[0].ID, tally.AgentTally, "tasks claude-"+list[0].ID
		r.TaskList = &tally.OwnList{Name: r.ID[len("tally:"):]}
		list = append(list, r.Session(fixedNow))
		var b strings.Builder
		if err := RenderSessions(&b, list, TableOptions{Terminal: true, Width: 80, Now: fixedNow, Home: testHome}); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		fits(t, got, 80)
		for _, want := range []string{"DONE", "LAST", "Build ", "tally:claude-7c1e2a90 "} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
	})
	t.Run("projects cut to fit stay different", func(t *testing.T) {
		var list []tally.Session
		for i, p := range []string{"/tmp/capture/cc/todowrite/work", "/tmp/capture/cc/todowrite-subagent/work",
			"/tmp/capture/cc/tasks/work", "/tmp/capture/cc/tasks-subagent/work"} {
			r := exampleRecord()
			r.ID, r.Project = fmt.Sprintf("%08d", i), p
			list = append(list, r.Session(fixedNow))
		}
		var b strings.Builder
		if err := RenderSessions(&b, list, TableOptions{Terminal: true, Width: 80, Now: fixedNow, Home: testHome}); err != nil {
			t.Fatal(err)
		}
		fits(t, b.String(), 80)
		seen := map[string]bool{}
		for _, row := range strings.Split(strings.TrimSpace(b.String()), "\n")[1:] {
			project := strings.Fields(row)[2]
			if seen[project] {
				t.Errorf("two projects shown as %q:\n%s", project, b.String())
			}
			seen[project] = true
		}
	})
	t.Run("flags show at 80 columns, most urgent first, and to a program in full", func(t *testing.T) {
		list := sessionsFixture()
		list[0].Flags = tally.Flags{}.With(tally.FlagLooping, fixedNow.Add(-time.Minute)).With(tally.FlagNeedsInput, fixedNow)
		list[2].Flags = tally.Flags{}.With(tally.FlagFinished, fixedNow.Add(-time.Hour))
		var b strings.Builder
		if err := RenderSessions(&b, list, TableOptions{Terminal: true, Width: 80, Now: fixedNow, Home: testHome, Color: true}); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		golden(t, "sessions_flags_80", termstyle.Strip(got))
		fits(t, got, 80)
		for _, want := range []string{"FLAGS", "input+1", "finished", "1/5"} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
		b.Reset()
		if err := RenderSessions(&b, list, TableOptions{Now: fixedNow}); err != nil {
			t.Fatal(err)
		}
		if first := strings.Split(strings.Split(b.String(), "\n")[0], "\t"); first[len(first)-1] != "needs_input,looping" {
			t.Errorf("a program reads the flags as %q, want needs_input,looping", first[len(first)-1])
		}
	})
	t.Run("a terminal narrower than the columns cuts rows, never wraps them", func(t *testing.T) {
		fits(t, render(TableOptions{Terminal: true, Width: 50, Color: true}), 50)
	})
	t.Run("pipe", func(t *testing.T) {
		got := render(TableOptions{})
		golden(t, "sessions_plain", got)
		first := strings.Split(strings.Split(got, "\n")[0], "\t")
		want := []string{"7c1e2a90-1b2c-4d5e-8f90-123456789abc", "claude", testHome + "/src/shop", "Build the orders API", "working", "1/5", "Creating API endpoints", "2026-11-22T14:59:20Z", ""}
		if strings.Join(first, "|") != strings.Join(want, "|") {
			t.Errorf("first row = %q, want %q", first, want)
		}
	})
}

// TestRenderShow_aFinishedListIsShownWhole: folding keeps what is left
// to do in view; with nothing left, it would leave only "… +2 done".
func TestRenderShow_aFinishedListIsShownWhole(t *testing.T) {
	r := exampleRecord()
	r.Lists[""] = []tally.Item{
		item("1", "Set up database", "", tally.StatusCompleted),
		item("2", "Create API endpoints", "", tally.StatusCompleted),
		item("3", "Drop the old table", "", tally.StatusCancelled),
	}
	got := renderShow(t, r, ShowOptions{})
	for _, want := range []string{"✓ Set up database", "✓ Create API endpoints", "✗ Drop the old table  (cancelled)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "+2 done") {
		t.Errorf("a finished list folded:\n%s", got)
	}
}

func TestRenderChange(t *testing.T) {
	ch := index.Change{Kind: index.SessionUpdated, ID: exampleRecord().ID, Record: exampleRecord()}
	var b strings.Builder
	if err := RenderChange(&b, ch, LineOptions{Now: fixedNow, Home: testHome}); err != nil {
		t.Fatal(err)
	}
	if err := RenderChange(&b, index.Change{Kind: index.SessionRemoved, ID: "e277426f"}, LineOptions{Now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	want := "15:00:00 7c1e2a90 claude ~/src/shop Build the orders API  1/5  ◼ Creating API endpoints\n15:00:00 e277426f  removed\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := RenderChangeJSON(&b, ch, fixedNow); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), `{"type":"session_updated","session":{"schema":1,"id":"7c1e2a90-`) || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("got %s", b.String())
	}
}

func TestRenderChange_namesWhatChanged(t *testing.T) {
	before := exampleRecord()
	after := exampleRecord()
	after.Lists[""] = []tally.Item{
		item("1", "Set up database", "", tally.StatusCompleted),
		item("2", "Create API endpoints", "", tally.StatusCompleted),                             // done: unblocks 3
		item("3", "Integration tests", "Running integration tests", tally.StatusInProgress, "2"), // started
		item("5", "Write README", "", tally.StatusPending),                                       // 4 removed
		item("6", "Deploy", "", tally.StatusPending),                                             // added
	}
	after.Lists["a1930ad882c0f656e"] = []tally.Item{item("", "Read greet.py", "", tally.StatusCompleted)}
	prev := before.Session(fixedNow)
	line := func(r tally.Record, prev *tally.Session) string {
		var b strings.Builder
		ch := index.Change{Kind: index.SessionUpdated, ID: r.ID, Record: r}
		if err := RenderChange(&b, ch, LineOptions{Now: fixedNow, Home: testHome, Previous: prev}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := "15:00:00 7c1e2a90 claude ~/src/shop Build the orders API  2/5  ✓ Create API endpoints (completed); " +
		"◼ Integration tests (in progress); ◻ Deploy (added); − Add auth (removed); " +
		"sub-agent a1930ad: ✓ Read greet.py (added, completed)\n"
	if got := line(after, &prev); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// Nothing in the lists changed (the agent wrote other lines): the line
	// says where the work stands.
	if got := line(before, &prev); !strings.HasSuffix(got, "1/5  ◼ Creating API endpoints\n") {
		t.Errorf("unchanged lists: %q", got)
	}
}

func TestRenderSummary(t *testing.T) {
	s := index.Summary{Sessions: 12, Files: 34, Lines: 120_000, Bytes: 50_000_000, Parsed: 900, Malformed: 2, Elapsed: 250 * time.Millisecond}
	var b strings.Builder
	if err := RenderSummary(&b, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary", b.String())
	if !strings.Contains(b.String(), "0.25 (200.0 MB/s)") {
		t.Errorf("got\n%s", b.String())
	}
	b.Reset()
	_ = RenderSummaryJSON(&b, s)
	if want := `{"sessions":12,"files":34,"lines":120000,"bytes":50000000,"parsed":900,"malformed":2,"unreadable":0,"reread":0,"unchanged":0,"seconds":0.25,"mbPerSec":200}` + "\n"; b.String() != want {
		t.Errorf("got %s want %s", b.String(), want)
	}
}

// TestRenderSummary_aSecondScanSaysItReadOnlyWhatIsNew: its zeros are of
// what it read, not of what it found.
func TestRenderSummary_aSecondScanSaysItReadOnlyWhatIsNew(t *testing.T) {
	var b strings.Builder
	if err := RenderSummary(&b, index.Summary{Sessions: 12, Unchanged: 34, Reread: 1, Files: 1, Lines: 10, Bytes: 5515, Elapsed: time.Second}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"files      1 read; 34 unchanged since the last scan, not read again\n", "reread     1 files (shrank or replaced: read again from the start)\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

func TestAgo(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{0, "now"}, {-time.Minute, "now"}, {12 * time.Second, "12s ago"}, {3*time.Minute + 59*time.Second, "3m ago"}, {2 * time.Hour, "2h ago"}, {50 * time.Hour, "2d ago"}} {
		if got := ago(fixedNow.Add(-c.d), fixedNow); got != c.want {
			t.Errorf("ago(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := ago(time.Time{}, fixedNow); got != "-" {
		t.Errorf("zero time: %q", got)
	}
}

// Two Codex sessions of the same minute change one after the other: each
// watch line calls its session by a prefix the other does not share.
func TestWatch_linesCallSessionsByPrefixesNoOtherShares(t *testing.T) {
	var out, errOut syncBuffer
	o := &watchOptions{app: &app{env: testEnv(newStore(t), &out, &errOut, nil)}, last: map[string]tally.Session{}, projects: map[string]bool{}}
	for _, id := range []string{"01a20394-5f3e-7c21-9a0b-0c1d2e3f4a5b", "01a20394-61aa-7d02-8b11-5e6f7a8b9c0d"} {
		r := exampleRecord()
		r.ID, r.Agent = id, codex.Agent
		if err := o.print(index.Change{Kind: index.SessionUpdated, ID: id, Record: r}); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "15:00:00 01a20394 codex") || !strings.HasPrefix(lines[1], "15:00:00 01a20394-6 codex") {
		t.Errorf("lines:\n%s\n(the first was alone when printed; the second is told from it)", out.String())
	}
}

// TestWatch_printsOnlyWhenAnItemTheStepOrTheActivityChanged: an agent's
// tool calls and replies are committed as changes that leave its list as
// it was; a line for each would bury the ones that say something.
func TestWatch_printsOnlyWhenAnItemTheStepOrTheActivityChanged(t *testing.T) {
	var out, errOut syncBuffer
	o := &watchOptions{app: &app{env: testEnv(newStore(t), &out, &errOut, nil)}, last: map[string]tally.Session{}, projects: map[string]bool{}}
	send := func(r tally.Record) {
		t.Helper()
		if err := o.print(index.Change{Kind: index.SessionUpdated, ID: r.ID, Record: r}); err != nil {
			t.Fatal(err)
		}
	}
	r := exampleRecord()
	bare := tally.Record{ID: r.ID, Agent: r.Agent, LastActivity: fixedNow.Add(-time.Minute), Signal: tally.SignalWorking}
	send(bare) // its first line: nothing to show yet
	r.LastActivity = bare.LastActivity
	send(r) // a project, a title and a list
	r.LastActivity = fixedNow.Add(-30 * time.Second)
	send(r) // a tool call: nothing shown changed
	send(r)
	r.Lists[""][1].Status = tally.StatusCompleted
	send(r) // an item
	r.Signal = tally.SignalEnded
	send(r) // the activity
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "1/5  ✓ Set up database (added, completed); ◼ Create API endpoints (added, in progress)") ||
		!strings.HasSuffix(lines[1], "2/5  ✓ Create API endpoints (completed); ◻ Integration tests (pending)") ||
		!strings.HasSuffix(lines[2], "2/5  (ended)") {
		t.Errorf("lines:\n%s\n(want one for the list, one for the item, one for its end)", out.String())
	}
}

// TestWatch_theFirstChangeOfASessionIndexedBeforeNamesItsItems: a session
// resumed after watch started was not active then; its first line names
// the item that changed, as for an active one, not just its step.
func TestWatch_theFirstChangeOfASessionIndexedBeforeNamesItsItems(t *testing.T) {
	st := newStore(t)
	old := exampleRecord()
	old.LastActivity = fixedNow.Add(-48 * time.Hour)
	if err := st.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{old}}); err != nil {
		t.Fatal(err)
	}
	var out, errOut syncBuffer
	o := &watchOptions{app: &app{env: testEnv(st, &out, &errOut, nil)}}
	if err := o.remember(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	resumed := exampleRecord()
	resumed.Lists[""][1].Status = tally.StatusCompleted
	if err := o.print(index.Change{Kind: index.SessionUpdated, ID: resumed.ID, Record: resumed}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); !strings.HasSuffix(got, "2/5  ✓ Create API endpoints (completed); ◻ Integration tests (pending)") {
		t.Errorf("first line of a resumed session: %q", got)
	}
}

// A pushed session shows where it came from: a column of its own on a
// terminal and a tenth field in a pipe; a list of this machine's own
// sessions keeps its nine.
func TestRenderSessions_originOfPushedSessions(t *testing.T) {
	rec := exampleRecord()
	local := rec.Session(fixedNow)
	pushed := local
	pushed.ID, pushed.Machine, pushed.User = "abcdef12-pushed", "ana-laptop", "ana"
	render := func(o TableOptions, list ...tally.Session) string {
		var b strings.Builder
		o.Now, o.Home = fixedNow, testHome
		if err := RenderSessions(&b, list, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	term := render(TableOptions{Terminal: true, Width: 160}, pushed, local)
	if !strings.Contains(term, "ORIGIN") || !strings.Contains(term, "ana@ana-laptop") {
		t.Errorf("terminal:\n%s", term)
	}
	pipe := strings.Split(strings.TrimSuffix(render(TableOptions{}, pushed, local), "\n"), "\n")
	if f := strings.Split(pipe[0], "\t"); len(f) != 10 || f[9] != "ana@ana-laptop" {
		t.Errorf("pipe row of the pushed session: %q", f)
	}
	if f := strings.Split(pipe[1], "\t"); len(f) != 10 || f[9] != "" {
		t.Errorf("pipe row of a local session in the same list: %q", f)
	}
	if f := strings.Split(strings.TrimSuffix(render(TableOptions{}, local), "\n"), "\t"); len(f) != 9 {
		t.Errorf("a list without pushed sessions has %d fields, want 9", len(f))
	}
	if term := render(TableOptions{Terminal: true, Width: 160}, local); strings.Contains(term, "ORIGIN") {
		t.Errorf("an ORIGIN column for local sessions only:\n%s", term)
	}
	var b strings.Builder
	if err := RenderShow(&b, pushed, ShowOptions{Now: fixedNow, Home: testHome}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "from ana@ana-laptop") {
		t.Errorf("show:\n%s", b.String())
	}
}

// TestRenderShow_theRuntimesCallsAreCountedApartFromTheLists: tally show
// names the runtime list as tool calls, counted whole (those the fold let
// go too), never as a sub-agent.
func TestRenderShow_theRuntimesCallsAreCountedApartFromTheLists(t *testing.T) {
	r := exampleRecord()
	r.Lists[tally.RuntimeList] = []tally.Item{
		{ID: "c1", Title: "Run tests", ActiveForm: "Running tests", Status: tally.StatusFailed, Source: tally.SourceTask},
		{ID: "c2", Title: "Edit api.go", ActiveForm: "Editing api.go", Status: tally.StatusInProgress, Source: tally.SourceTask},
	}
	r.Runtime = tally.RuntimeCount{Calls: 40, Failed: 2}
	got := renderShow(t, r, ShowOptions{})
	if !strings.Contains(got, "Tool calls 42, 1 running, 3 failed") || strings.Contains(got, "Sub-agent runtime") {
		t.Errorf("show:\n%s", got)
	}
}
