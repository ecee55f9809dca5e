package hook_test

import (
	"strings"
	"testing"
	"time"

	. "github.com/tallyhq/tally/hook"

	"github.com/tallyhq/tally"
)

var t0 = time.Date(2026, 11, 23, 16, 47, 0, 0, time.UTC)

// TestDecide_recorded answers payloads the real Claude Code 2.1.330 sent,
// against the lists its own transcripts fold to, and compares the bytes a
// hook would print with the golden files.
func TestDecide_recorded(t *testing.T) {
	todo := ownList(t, "todo/transcript.jsonl")
	tasks := ownList(t, "tasks/transcript.jsonl")
	tallyList := List{Kind: ListTally, Name: "claude-82d497ea", Items: []tally.Item{
		item("1", "Draft the release notes", tally.StatusCompleted),
		item("2", "Tag the release", tally.StatusPending, "3"),
		item("3", "Run the release checks", tally.StatusInProgress),
	}}
	allDone := List{Kind: ListOwn, Items: []tally.Item{item("", "Write greeting module", tally.StatusCompleted)}}
	guard := Options{GuardStop: true, Now: t0}
	tests := []struct {
		name    string
		payload string
		lists   []List
		st      State
		o       Options
		golden  string
	}{
		{"compaction gives back only the unfinished TodoWrite items", "todo/payloads/SessionStart-compact.json", []List{todo}, State{}, Options{}, "compact-todo.json"},
		{"compaction names what blocks a blocked task", "tasks/payloads/SessionStart-compact.json", []List{tasks}, State{}, Options{}, "compact-tasks.json"},
		{"resume gives back the own list and the Tally list", "todo/payloads/SessionStart-resume.json", []List{todo, tallyList}, State{}, Options{}, "resume-todo-tally.json"},
		{"compaction with nothing unfinished says nothing", "todo/payloads/SessionStart-compact.json", []List{allDone}, State{}, Options{}, "empty"},
		{"startup says nothing", "todo/payloads/SessionStart-startup.json", []List{todo}, State{}, Options{}, "empty"},
		{"stop with unblocked work left is refused", "todo/payloads/Stop.json", []List{todo}, State{}, guard, "stop-block-todo.json"},
		{"stop is refused for workable tasks only, not blocked ones", "tasks/payloads/Stop.json", []List{tasks}, State{}, guard, "stop-block-tasks.json"},
		{"stop while a stop hook is active is let through", "todo/payloads/Stop-active.json", []List{todo}, State{}, guard, "empty"},
		{"stop guard is opt-in", "todo/payloads/Stop.json", []List{todo}, State{}, Options{Now: t0}, "empty"},
		{"notification marks needs input and prints nothing", "permission/payloads/Notification-permission_prompt.json", []List{todo}, State{}, Options{}, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := payload(t, tt.payload)
			a, _ := Decide(ev, Session{Lists: tt.lists}, tt.st, tt.o)
			got := ClaudeFormat{}.Encode(ev, a)
			if tt.golden == "empty" {
				if got != nil {
					t.Fatalf("want no output, got %s", got)
				}
				return
			}
			golden(t, tt.golden, got)
		})
	}
}

func TestDecide_compactionNamesNoFinishedItem(t *testing.T) {
	ev := payload(t, "todo/payloads/SessionStart-compact.json")
	a, _ := Decide(ev, Session{Lists: []List{ownList(t, "todo/transcript.jsonl")}}, State{}, Options{})
	if strings.Contains(a.Context, "Write greeting module") {
		t.Errorf("the completed item is named:\n%s", a.Context)
	}
	for _, want := range []string{"[in progress] Add unit test", "[pending] Update README", "1 completed left out"} {
		if !strings.Contains(a.Context, want) {
			t.Errorf("context lacks %q:\n%s", want, a.Context)
		}
	}
}

func TestDecide_notificationsMarkNeedsInput(t *testing.T) {
	s := Session{Lists: []List{ownList(t, "todo/transcript.jsonl")}}
	for _, p := range []string{"permission/payloads/Notification-permission_prompt.json", "todo/payloads/Notification-idle_prompt.json"} {
		if a, _ := Decide(payload(t, p), s, State{}, Options{}); !a.NeedsInput || !a.Empty() {
			t.Errorf("%s: %+v", p, a)
		}
	}
	other := payload(t, "todo/payloads/Notification-idle_prompt.json")
	other.NotificationType = "auth_success"
	if a, _ := Decide(other, s, State{}, Options{}); a.NeedsInput {
		t.Error("a notification that asks nothing of the user marks needs input")
	}
}

func TestDecide_resumeDoesNotRepeatWhatWasJustGivenBack(t *testing.T) {
	s := Session{Lists: []List{ownList(t, "todo/transcript.jsonl")}}
	compact, resume := payload(t, "todo/payloads/SessionStart-compact.json"), payload(t, "todo/payloads/SessionStart-resume.json")
	a, st := Decide(compact, s, State{}, Options{})
	if a.Context == "" {
		t.Fatal("compaction gave nothing back")
	}
	if a, _ := Decide(resume, s, st, Options{}); a.Context != "" {
		t.Errorf("resume repeated the unchanged lists: %q", a.Context)
	}
	s.Lists[0].Items[2].Status = tally.StatusInProgress
	s.Lists[0].Items[1].Status = tally.StatusCompleted
	if a, _ := Decide(resume, s, st, Options{}); !strings.Contains(a.Context, "[in progress] Update README") {
		t.Errorf("resume after a change: %q", a.Context)
	}
	if a, _ := Decide(compact, s, st, Options{}); a.Context == "" {
		t.Error("a compaction always gives the lists back: the context that held them is gone")
	}
}

func TestDecide_stopNeverTraps(t *testing.T) {
	ev := payload(t, "todo/payloads/Stop.json")
	s := Session{Lists: []List{ownList(t, "todo/transcript.jsonl")}}
	o := Options{GuardStop: true, Now: t0}

	t.Run("after two blocks in the window the third stop is allowed", func(t *testing.T) {
		st := State{}
		var blocks int
		for i := range 3 {
			o.Now = t0.Add(time.Duration(i) * time.Minute)
			var a Answer
			a, st = Decide(ev, s, st, o)
			if a.Block != "" {
				blocks++
			}
		}
		if blocks != 2 {
			t.Errorf("%d of 3 stops blocked, want 2", blocks)
		}
		if len(st.Blocks) > DefaultStopBlocks {
			t.Errorf("state keeps %d block times, bound is %d", len(st.Blocks), DefaultStopBlocks)
		}
		o.Now = t0.Add(2*time.Minute + DefaultStopWindow)
		if a, _ := Decide(ev, s, st, o); a.Block == "" {
			t.Error("past the window the guard does not block again")
		}
	})
	t.Run("all remaining items blocked: stop allowed", func(t *testing.T) {
		l := List{Kind: ListOwn, Items: []tally.Item{
			item("1", "Write module", tally.StatusCompleted),
			item("2", "Tag release", tally.StatusPending, "3"),
			item("3", "Wait for review", tally.StatusBlocked),
		}}
		if a, _ := Decide(ev, Session{Lists: []List{l}}, State{}, o); a.Block != "" {
			t.Errorf("blocked: %s", a.Block)
		}
	})
	t.Run("no list: stop allowed", func(t *testing.T) {
		if a, _ := Decide(ev, Session{}, State{}, o); a.Block != "" {
			t.Errorf("blocked: %s", a.Block)
		}
	})
	t.Run("a question for the user: stop allowed", func(t *testing.T) {
		q := ev
		q.LastAssistantMessage = "Should the greeting be in French too?"
		if a, _ := Decide(q, s, State{}, o); a.Block != "" {
			t.Errorf("blocked: %s", a.Block)
		}
	})
	t.Run("plan mode: stop allowed", func(t *testing.T) {
		p := ev
		p.PermissionMode = "plan"
		if a, _ := Decide(p, s, State{}, o); a.Block != "" {
			t.Errorf("blocked: %s", a.Block)
		}
	})
	t.Run("state unavailable: stop allowed, a block it cannot count could repeat", func(t *testing.T) {
		if a, _ := Decide(ev, s, State{Unavailable: true}, o); a.Block != "" {
			t.Errorf("blocked: %s", a.Block)
		}
	})
	t.Run("sub-agent calls get no answer", func(t *testing.T) {
		sub := ev
		sub.AgentID = "a1b2"
		if a, _ := Decide(sub, s, State{}, o); !a.Empty() {
			t.Errorf("answered %+v", a)
		}
	})
}

func TestDecide_reminder(t *testing.T) {
	ev := payload(t, "todo/payloads/UserPromptSubmit-2.json")
	own := ownList(t, "todo/transcript.jsonl")
	tl := List{Kind: ListTally, Name: "claude-82d497ea", Items: []tally.Item{item("1", "Tag the release", tally.StatusPending)}}
	s := Session{Lists: []List{own, tl}}
	var st State
	var reminders []string
	for turn := range 25 {
		s.NewTurns = 1
		if turn == 0 {
			s.NewTurns = 0
		}
		var a Answer
		a, st = Decide(ev, s, st, Options{Now: t0})
		if !a.Active {
			t.Fatal("activity is not reported as such")
		}
		if a.Context != "" {
			reminders = append(reminders, a.Context)
			if turn != 10 && turn != 20 {
				t.Errorf("reminder at turn %d, want turns 10 and 20", turn)
			}
		}
	}
	if len(reminders) != 2 {
		t.Fatalf("%d reminders in 24 turns, want 2", len(reminders))
	}
	golden(t, "reminder-tally.txt", []byte(reminders[0]))
	if strings.Contains(reminders[0], "Add unit test") {
		t.Error("Claude Code reminds itself of its own list: Tally's reminder repeats it")
	}

	t.Run("a list update starts the count again", func(t *testing.T) {
		st := State{}
		_, st = Decide(ev, s, st, Options{Now: t0})
		s2 := s
		s2.NewTurns = 9
		_, st = Decide(ev, s2, st, Options{Now: t0})
		changed := Session{Lists: []List{own, {Kind: ListTally, Name: tl.Name, Items: []tally.Item{item("1", "Tag the release", tally.StatusInProgress)}}}, NewTurns: 1}
		a, st := Decide(ev, changed, st, Options{Now: t0})
		if a.Context != "" || st.Turns != 0 {
			t.Errorf("after an update: context %q, turns %d", a.Context, st.Turns)
		}
	})
}

func TestDecide_verificationNudge(t *testing.T) {
	ev := payload(t, "todo/payloads/PostToolUse-TodoWrite-2.json")
	list := func(done int, titles ...string) Session {
		l := List{Kind: ListOwn}
		for i, title := range titles {
			s := tally.StatusPending
			if i < done {
				s = tally.StatusCompleted
			}
			l.Items = append(l.Items, item("", title, s))
		}
		return Session{Lists: []List{l}}
	}
	var st State
	_, st = Decide(ev, list(2, "Write module", "Write docs", "Write example", "Ship"), st, Options{Now: t0})
	a, st := Decide(ev, list(3, "Write module", "Write docs", "Write example", "Ship"), st, Options{Now: t0})
	if a.Context != NudgeText {
		t.Fatalf("third completion without a verification step: context %q", a.Context)
	}
	a, st = Decide(ev, list(4, "Write module", "Write docs", "Write example", "Ship"), st, Options{Now: t0})
	if a.Context != "" {
		t.Errorf("nudged twice for one list: %q", a.Context)
	}
	_, st = Decide(ev, list(0, "Refactor"), st, Options{Now: t0})
	_, st = Decide(ev, list(2, "A", "B", "C", "Run the tests"), st, Options{Now: t0})
	if a, _ := Decide(ev, list(3, "A", "B", "C", "Run the tests"), st, Options{Now: t0}); a.Context != "" {
		t.Errorf("a list with a test step is nudged: %q", a.Context)
	}
}

// In a project that keeps a plan, the agent learns the plan protocol when
// its session starts and again whenever its context lost it (a compaction,
// a clear), before any list it is given back; a resumed session that has
// it is not told again. Where there is no plan nothing is added.
func TestDecide_planProtocolAtSessionStart(t *testing.T) {
	const protocol = "## Task Management Protocol\n\n(the block)"
	s := Session{Lists: []List{ownList(t, "todo/transcript.jsonl")}}
	o := Options{Protocol: protocol}
	startup, compact, resume := payload(t, "todo/payloads/SessionStart-startup.json"),
		payload(t, "todo/payloads/SessionStart-compact.json"), payload(t, "todo/payloads/SessionStart-resume.json")

	a, st := Decide(startup, s, State{}, o)
	if a.Context != protocol || !st.Protocol {
		t.Fatalf("startup: %q, state %+v", a.Context, st)
	}
	if got := string(ClaudeFormat{}.Encode(startup, a)); !strings.Contains(got, `"additionalContext":"## Task Management Protocol`) {
		t.Fatalf("the answer Claude Code reads: %s", got)
	}
	worked := s
	worked.NewTurns = 3 // the model worked with it, then its context was compacted
	a, st = Decide(compact, worked, st, o)
	if !strings.HasPrefix(a.Context, protocol+"\n\n") || !strings.Contains(a.Context, "[in progress] Add unit test") {
		t.Fatalf("compaction: %q", a.Context)
	}
	if a, _ := Decide(resume, s, st, o); strings.Contains(a.Context, protocol) {
		t.Fatalf("a resumed session that has the protocol is told again: %q", a.Context)
	}
	if a, _ := Decide(resume, s, State{}, o); !strings.HasPrefix(a.Context, protocol) {
		t.Fatalf("a resumed session never told is not told: %q", a.Context)
	}
	if a, _ := Decide(startup, s, State{}, Options{}); a.Context != "" {
		t.Fatalf("no plan, yet startup says %q", a.Context)
	}
}

// With /compact then --resume (Claude Code 2.1.330, recorded in
// testdata/e2e/claude-plan-compact-resume): SessionStart resume gives the
// lists and the protocol back; the compaction that follows before any
// model call keeps that context (compact_boundary's preservedMessages), so
// SessionStart compact gives none of it again, and the next resume neither:
// each is given once per session and compaction. Once the model has worked,
// a compaction loses them and they are given again.
func TestDecide_oneGiveBackPerSessionAndCompaction(t *testing.T) {
	const protocol = "## Task Management Protocol\n\n(the block)"
	s := Session{Lists: []List{ownList(t, "todo/transcript.jsonl")}}
	o := Options{Protocol: protocol, Plan: "Where the plan stands: T001 S2 next."}
	compact, resume := payload(t, "todo/payloads/SessionStart-compact.json"), payload(t, "todo/payloads/SessionStart-resume.json")
	var lists, protocols, plans int
	count := func(a Answer) {
		lists += strings.Count(a.Context, "Your lists as they stood")
		protocols += strings.Count(a.Context, protocol)
		plans += strings.Count(a.Context, "T001 S2 next")
	}
	a, st := Decide(resume, s, State{}, o)
	count(a)
	a, st = Decide(compact, s, st, o)
	count(a)
	a, st = Decide(resume, s, st, o)
	count(a)
	if lists != 1 || protocols != 1 || plans != 1 {
		t.Errorf("resume, /compact, resume: the lists given %d times, the protocol %d, the plan %d; want each once", lists, protocols, plans)
	}
	if st.Compactions != 1 {
		t.Errorf("compactions %d", st.Compactions)
	}
	worked := s
	worked.NewTurns = 2
	a, st = Decide(compact, worked, st, o)
	if !strings.HasPrefix(a.Context, protocol) || !strings.Contains(a.Context, "T001 S2 next") || !strings.Contains(a.Context, "[in progress] Add unit test") {
		t.Errorf("a compaction after the model worked gives everything back again: %q", a.Context)
	}
	if a, _ := Decide(resume, s, st, o); a.Context != "" {
		t.Errorf("the resume after it repeats: %q", a.Context)
	}
	clear := compact
	clear.Source = SourceClear
	if a, _ := Decide(clear, s, st, o); !strings.HasPrefix(a.Context, protocol) || !strings.Contains(a.Context, "T001 S2 next") {
		t.Errorf("a clear right after a give-back: the new context holds none of it, yet %q", a.Context)
	}

	t.Run("after a startup that gave the protocol, as recorded", func(t *testing.T) {
		startup := payload(t, "todo/payloads/SessionStart-startup.json")
		lists, protocols, plans = 0, 0, 0
		_, st := Decide(startup, Session{}, State{}, o)
		a, st := Decide(resume, worked, st, o) // the first run's turns, then --resume
		count(a)
		if strings.Contains(a.Context, protocol) {
			t.Errorf("the resumed context holds the protocol, yet: %q", a.Context)
		}
		a, st = Decide(compact, s, st, o)
		count(a)
		a, _ = Decide(resume, s, st, o)
		count(a)
		if lists != 1 || protocols != 1 || plans != 1 {
			t.Errorf("the lists given %d times, the protocol %d, the plan %d after the first run; want each once", lists, protocols, plans)
		}
	})
}

// The lists given back tell the model to go on with the item in progress
// only when one is: with none in progress (or the one in progress
// blocked), it is told to start the next.
func TestDecide_givenBackNeverNamesAnItemInProgressWhenNoneIs(t *testing.T) {
	compact := payload(t, "todo/payloads/SessionStart-compact.json")
	own := ownList(t, "todo/transcript.jsonl")
	for i := range own.Items {
		if own.Items[i].Status == tally.StatusInProgress {
			own.Items[i].Status = tally.StatusPending
		}
	}
	a, _ := Decide(compact, Session{Lists: []List{own}}, State{}, Options{})
	if strings.Contains(a.Context, "in progress]") || strings.Contains(a.Context, "Go on with the item in progress") {
		t.Errorf("no item is in progress, yet: %q", a.Context)
	}
	if !strings.Contains(a.Context, "No item is in progress: start the next one you can") {
		t.Errorf("given back: %q", a.Context)
	}
	tasks := ownList(t, "tasks/transcript.jsonl")
	if a, _ := Decide(compact, Session{Lists: []List{tasks}}, State{}, Options{}); !strings.Contains(a.Context, "Go on with the item in progress") {
		t.Errorf("with an item in progress: %q", a.Context)
	}
}
