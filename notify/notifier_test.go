package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// TestNotifier_webhookShapes: a local receiver behind four real-looking
// webhook URLs gets exactly the expected notifications, in order, each in
// the shape its host accepts.
func TestNotifier_webhookShapes(t *testing.T) {
	rcv := newReceiver(t)
	hooks := map[string]*Webhook{
		"slack":    rcv.webhook(t, "https://hooks.slack.com/services/T0/B0/secret", FormatAuto),
		"discord":  rcv.webhook(t, "https://discord.com/api/webhooks/123/token", FormatAuto),
		"telegram": rcv.webhook(t, "https://api.telegram.org/bot123:abc/sendMessage?chat_id=-1001", FormatAuto),
		"json":     rcv.webhook(t, "https://ci.example.test/hooks/tally", FormatAuto),
	}
	for name, want := range map[string]Format{"slack": FormatSlack, "discord": FormatDiscord, "telegram": FormatTelegram, "json": FormatJSON} {
		if got := hooks[name].Format(); got != want {
			t.Errorf("%s URL chose %v, want %v", name, got, want)
		}
	}
	n, _ := newNotifier(t, Options{Burst: -1}, hooks["slack"], hooks["discord"], hooks["telegram"], hooks["json"])

	a := sess("aaaa1111")
	a.Title = "Fix <login> & @everyone *now*"
	b := sess("bbbb2222")
	// Each update's news is waited for at all four sinks before the next,
	// so that each is a message of its own: a sink merges what piles up
	// while it is busy.
	var reqs []request
	wait := func() {
		for range hooks {
			reqs = append(reqs, rcv.next(t))
		}
	}
	n.Publish(Update{Session: a, At: after(time.Second), Flags: flags(tally.FlagNeedsInput, after(time.Second)), Done: 1, Total: 3})
	wait()
	n.Publish(Update{Session: a, At: after(2 * time.Second), Flags: flags(tally.FlagNeedsInput, after(time.Second)), Done: 1, Total: 3})
	n.Publish(Update{Session: b, At: after(3 * time.Second), Flags: flags(tally.FlagLooping, after(3*time.Second)), Done: 0, Total: 2})
	wait()
	n.Publish(Update{Session: a, At: after(4 * time.Second), Flags: flags(tally.FlagFinished, after(4*time.Second)), Done: 3, Total: 3})
	wait()
	n.Close()

	byPath := map[string][]request{}
	for _, q := range append(reqs, rcv.drain()...) {
		byPath[q.Path] = append(byPath[q.Path], q)
	}
	for name, path := range map[string]string{
		"slack": "/services/T0/B0/secret", "discord": "/api/webhooks/123/token",
		"telegram": "/bot123:abc/sendMessage", "json": "/hooks/tally",
	} {
		reqs := byPath[path]
		if len(reqs) != 3 {
			t.Errorf("%s: %d requests, want 3 (needs input, looping, finished)", name, len(reqs))
			continue
		}
		var all strings.Builder
		for _, q := range reqs {
			if q.Type != "application/json" {
				t.Errorf("%s: Content-Type %q", name, q.Type)
			}
			all.WriteString(pretty(t, q.Body))
		}
		golden(t, "webhook-"+name, all.String())
	}
	if got, want := jsonEvents(t, byPath["/hooks/tally"]), [][]string{
		{"needs_input aaaa1111"}, {"looping bbbb2222"}, {"finished aaaa1111"},
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("JSON events = %q, want %q", got, want)
	}
	if st := n.Stats(); st.Events != 3 || st.Messages != 3 {
		t.Errorf("stats = %+v, want 3 events in 3 messages", st)
	}
}

// TestNotifier_flappingSessionNotifiesOnce: a condition that clears and
// comes back within the settle time is one occurrence, however often.
func TestNotifier_flappingSessionNotifiesOnce(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1, Settle: 2 * time.Minute}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	s := sess("flappy")
	for i := range 10 {
		on := after(time.Duration(i) * 20 * time.Second)
		n.Publish(Update{Session: s, At: on, Flags: flags(tally.FlagNeedsInput, on)})
		n.Publish(Update{Session: s, At: on.Add(10 * time.Second)})
	}
	// The same stall told again and again (a surface re-deriving flags on a
	// timer) is one stall.
	for i := range 10 {
		n.Publish(Update{Session: s, At: after(4 * time.Minute), Flags: flags(tally.FlagStalled, after(9*time.Minute)),
			Done: i % 2})
	}
	n.Close()
	got := flat(jsonEvents(t, rcv.drain()))
	want := []string{"needs_input flappy", "stalled flappy"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
	if st := n.Stats(); st.Repeats != 9 {
		t.Errorf("repeats = %d, want 9 (the returns within the settle time)", st.Repeats)
	}
}

func TestNotifier_aConditionBackAfterTheSettleTimeIsNews(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1, Settle: 2 * time.Minute}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	s := sess("s1")
	n.Publish(Update{Session: s, At: after(0), Flags: flags(tally.FlagNeedsInput, after(0))})
	n.Publish(Update{Session: s, At: after(time.Minute)})
	n.Publish(Update{Session: s, At: after(4 * time.Minute), Flags: flags(tally.FlagNeedsInput, after(4*time.Minute))})
	// Back with a new start, the clear never seen: news if the new start
	// is a settle time after it was last seen on.
	n.Publish(Update{Session: s, At: after(10 * time.Minute), Flags: flags(tally.FlagNeedsInput, after(10*time.Minute))})
	n.Close()
	got := flat(jsonEvents(t, rcv.drain()))
	want := []string{"needs_input s1", "needs_input s1", "needs_input s1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
}

// TestNotifier_historyIsSwallowed: what was already so when the notifier
// started is not news, however it is published.
func TestNotifier_historyIsSwallowed(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1, Kinds: DefaultKinds().With(KindListCreated).With(KindItemCompleted)},
		rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	old := sess("old")
	// The start-up scan folds an old session in steps: each step is history.
	n.Publish(Update{Session: old, At: after(-3 * time.Hour), Done: 0, Total: 4})
	n.Publish(Update{Session: old, At: after(-2 * time.Hour), Done: 2, Total: 4, Flags: flags(tally.FlagLooping, after(-2*time.Hour))})
	n.Publish(Update{Session: old, At: after(-time.Hour), Done: 4, Total: 4,
		Flags: flags(tally.FlagFinished, after(-time.Hour), tally.FlagStalled, after(-time.Minute))})
	// A session whose first state seen is old history, still stalled now.
	n.Publish(Update{Session: sess("quiet"), At: after(-10 * time.Minute), Flags: flags(tally.FlagStalled, after(-5*time.Minute)), Done: 1, Total: 2})
	// Then the old session moves on after the start: that is news.
	n.Publish(Update{Session: old, At: after(time.Minute), Done: 0, Total: 2})
	n.Publish(Update{Session: old, At: after(2 * time.Minute), Done: 1, Total: 2, Completed: []string{"Write tests"}})
	n.Close()
	got := flat(jsonEvents(t, rcv.drain()))
	want := []string{"list_created old", "item_completed old"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
	if st := n.Stats(); st.History != 4 {
		t.Errorf("history = %d, want 4 (the old session's looping, finished and stall; the quiet stall)", st.History)
	}
}

func TestNotifier_aNewSessionIsNewsFromItsFirstState(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1, Kinds: DefaultKinds().With(KindListCreated)}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	s := sess("new")
	s.StartedAt = after(time.Minute)
	n.Publish(Update{Session: s, At: after(2 * time.Minute), Done: 0, Total: 3})
	n.Close()
	if got, want := jsonEvents(t, rcv.drain()), [][]string{{"list_created new"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
}

func TestNotifier_optInEventsAreOffByDefault(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	s := sess("s")
	n.Publish(Update{Session: s, At: after(0), Done: 0, Total: 3})
	n.Publish(Update{Session: s, At: after(time.Minute), Done: 0, Total: 3})
	n.Publish(Update{Session: s, At: after(2 * time.Minute), Done: 1, Total: 3})
	n.Close()
	if got := rcv.drain(); len(got) != 0 {
		t.Errorf("%d notifications for list changes nobody asked for", len(got))
	}
	if st := n.Stats(); st.Filtered != 1 {
		t.Errorf("filtered = %d, want 1 (the completed item)", st.Filtered)
	}
}

// TestNotifier_subAgentsRollUpIntoTheirParent: sub-agents' conditions are
// their parent's, told once; a sub-agent finishing is not the parent done.
func TestNotifier_subAgentsRollUpIntoTheirParent(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	parent := sess("parent")
	child := func(id string) Session { s := sess(id); s.Parent = "parent"; return s }
	n.Publish(Update{Session: parent, At: after(time.Second)})
	n.Publish(Update{Session: child("sub-a"), At: after(2 * time.Second), Flags: flags(tally.FlagLooping, after(2*time.Second))})
	n.Publish(Update{Session: child("sub-b"), At: after(3 * time.Second), Flags: flags(tally.FlagLooping, after(3*time.Second))})
	n.Publish(Update{Session: child("sub-b"), At: after(4 * time.Second), Flags: flags(tally.FlagFinished, after(4*time.Second))})
	n.Publish(Update{Session: parent, At: after(5 * time.Second), Flags: flags(tally.FlagFinished, after(5*time.Second)), Done: 2, Total: 2})
	n.Close()
	got := flat(jsonEvents(t, rcv.drain()))
	want := []string{"looping parent via sub-a", "finished parent"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
}

// TestNotifier_burstCollapsesIntoOneMessage: several sessions changing
// within the window are one message listing them.
func TestNotifier_burstCollapsesIntoOneMessage(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: time.Hour}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	for i, f := range []tally.Flag{tally.FlagNeedsInput, tally.FlagStalled, tally.FlagBlocked} {
		n.Publish(Update{Session: sess(fmt.Sprint("s", i)), At: after(time.Second), Flags: flags(f, after(time.Second))})
	}
	n.Close()
	got := jsonEvents(t, rcv.drain())
	want := [][]string{{"needs_input s0", "stalled s1", "blocked s2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
}

func TestNotifier_burstGoesOutWhenTheWindowEnds(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: 20 * time.Millisecond}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	n.Publish(Update{Session: sess("s"), At: after(time.Second), Flags: flags(tally.FlagNeedsInput, after(time.Second))})
	// No Close: the window's timer sends it.
	if got, want := jsonEvents(t, []request{rcv.next(t)}), [][]string{{"needs_input s"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("notification = %q, want %q", got, want)
	}
}

func TestNotifier_aLongBurstIsCutAndCounted(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: time.Hour}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	for i := range maxEvents + 5 {
		n.Publish(Update{Session: sess(fmt.Sprint("s", i)), At: after(time.Second), Flags: flags(tally.FlagStalled, after(time.Second))})
	}
	n.Close()
	reqs := rcv.drain()
	if len(reqs) != 1 {
		t.Fatalf("%d messages, want 1", len(reqs))
	}
	if body := string(reqs[0].Body); !strings.Contains(body, `"more":5`) || !strings.Contains(body, "… and 5 more") {
		t.Errorf("payload does not count the 5 left out: %s", body)
	}
}

// TestNotifier_rateLimitMergesWhatWaits: over the limit, messages wait and
// go out together.
func TestNotifier_rateLimitMergesWhatWaits(t *testing.T) {
	rcv := newReceiver(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := New(ctx, Options{Burst: -1, Now: func() time.Time { return start },
		Sinks: []SinkOptions{{Sink: rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON), MaxPerMinute: 1}}})
	n.Publish(Update{Session: sess("s0"), At: after(time.Second), Flags: flags(tally.FlagStalled, after(time.Second))})
	first := rcv.next(t)
	n.Publish(Update{Session: sess("s1"), At: after(time.Second), Flags: flags(tally.FlagStalled, after(time.Second))})
	n.Publish(Update{Session: sess("s2"), At: after(time.Second), Flags: flags(tally.FlagLooping, after(time.Second))})
	eventually(t, "the sink waits for the rate limit", func() bool { return n.Stats().Sinks[0].Waited > 0 })
	n.Close()
	got := jsonEvents(t, append([]request{first}, rcv.drain()...))
	want := [][]string{{"stalled s0"}, {"stalled s1", "looping s2"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("notifications = %q, want %q", got, want)
	}
	if st := n.Stats().Sinks[0]; st.Waited < 1 || st.Sent != 2 {
		t.Errorf("sink stats = %+v, want a wait and 2 sent", st)
	}
}

func TestNotifier_aNegativeSettleMakesEveryReturnNews(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1, Settle: -1}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	s := sess("s")
	for i := range 3 {
		on := after(time.Duration(i) * 20 * time.Second)
		n.Publish(Update{Session: s, At: on, Flags: flags(tally.FlagNeedsInput, on)})
		n.Publish(Update{Session: s, At: on.Add(10 * time.Second)})
	}
	n.Close()
	if got := flat(jsonEvents(t, rcv.drain())); len(got) != 3 {
		t.Errorf("notifications = %q, want 3", got)
	}
}

// TestNotifier_forgetsTheLeastActiveSessionsToStayBounded: past
// MaxSessions the least recently active are forgotten, and a new session
// is still told.
func TestNotifier_forgetsTheLeastActiveSessionsToStayBounded(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: -1, MaxSessions: 8}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	for i := range 20 {
		at := after(time.Duration(i) * time.Second)
		n.Publish(Update{Session: sess(fmt.Sprint("s", i)), At: at, Flags: flags(tally.FlagNeedsInput, at)})
	}
	n.Close()
	if got := flat(jsonEvents(t, rcv.drain())); len(got) != 20 {
		t.Errorf("%d notifications, want one for each of 20 sessions", len(got))
	}
	if st := n.Stats(); st.Forgotten != 12 {
		t.Errorf("forgotten = %d, want 12 (20 sessions kept to 8)", st.Forgotten)
	}
	// Read after Close: the owner goroutine has ended.
	if len(n.track.roots) > 8 {
		t.Errorf("%d sessions remembered, want at most 8", len(n.track.roots))
	}
}

// What agents' markers do to their plans is news when asked for: a step
// blocked, a task complete, the plan complete, each told once in words a
// person reads, with the plan's facts in the JSON payload. A marker from
// history (written before the notifier started) is not news, and plan
// news not asked for is filtered.
func TestNotifier_planNews(t *testing.T) {
	rcv := newReceiver(t)
	kinds := DefaultKinds().With(KindStepBlocked).With(KindTaskComplete).With(KindPlanComplete)
	n, _ := newNotifier(t, Options{Burst: -1, Kinds: kinds}, rcv.webhook(t, "https://ci.example.test/hooks/tally", FormatAuto))
	s := sess("aaaa1111")
	n.PublishPlan(s, PlanNews{Kind: KindTaskComplete, Task: "T000", At: start.Add(-time.Minute), Done: 1, Total: 2})
	n.PublishPlan(s, PlanNews{Kind: KindStepBlocked, Task: "T001", TaskName: "Greeting module", Step: "S2", Reason: "pytest is not installed",
		At: after(time.Second), Done: 0, Total: 2})
	n.PublishPlan(s, PlanNews{Kind: KindTaskComplete, Task: "T001", TaskName: "Greeting module", At: after(2 * time.Second), Done: 1, Total: 2})
	n.PublishPlan(s, PlanNews{Kind: KindPlanComplete, At: after(3 * time.Second), Done: 2, Total: 2})
	// A sink merges what piles up while it is busy: read until all three.
	var lines []string
	for len(lines) < 3 {
		var m jsonMessage
		q := rcv.next(t)
		if err := json.Unmarshal(q.Body, &m); err != nil {
			t.Fatalf("payload %s: %v", q.Body, err)
		}
		for _, e := range m.Events {
			lines = append(lines, e.Kind.String()+" | "+e.Text)
			if e.Kind == KindStepBlocked && (e.Plan == nil || e.Plan.Task != "T001" || e.Plan.Step != "S2" || e.Plan.Reason != "pytest is not installed") {
				t.Errorf("the blocked event's plan facts: %+v", e.Plan)
			}
		}
	}
	want := []string{
		"step_blocked | claude · tally · Session aaaa1111: is blocked at T001.S2: pytest is not installed",
		"task_complete | claude · tally · Session aaaa1111: completed T001 Greeting module (1/2 tasks)",
		"plan_complete | claude · tally · Session aaaa1111: completed its plan: all 2 tasks",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	n.Close()
	if st := n.Stats(); st.History != 1 || st.Events != 3 {
		t.Errorf("stats %+v: want the history marker swallowed and three events", st)
	}

	quiet, _ := newNotifier(t, Options{Burst: -1}, rcv.webhook(t, "https://ci.example.test/hooks/tally", FormatAuto))
	quiet.PublishPlan(s, PlanNews{Kind: KindTaskComplete, Task: "T001", At: after(time.Second), Done: 1, Total: 2})
	quiet.Close()
	if st := quiet.Stats(); st.Filtered != 1 || st.Events != 0 {
		t.Errorf("plan news by default: %+v, want it filtered (opt-in)", st)
	}
}

// TestNotifier_aBlockedSessionSaysWhy: the webhook says why the session
// cannot go on, as the board and the terminal do.
func TestNotifier_aBlockedSessionSaysWhy(t *testing.T) {
	rcv := newReceiver(t)
	n, _ := newNotifier(t, Options{Burst: time.Hour}, rcv.webhook(t, rcv.srv.URL+"/hook", FormatJSON))
	n.Publish(Update{Session: sess("s"), At: after(time.Second), Flags: flags(tally.FlagBlocked, after(time.Second)),
		Blocked: "Update README waits on Add unit test"})
	n.Close()
	reqs := rcv.drain()
	if len(reqs) != 1 {
		t.Fatalf("%d notifications, want 1", len(reqs))
	}
	var m jsonMessage
	if err := json.Unmarshal(reqs[0].Body, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Events) != 1 || m.Events[0].Reason != "Update README waits on Add unit test" ||
		!strings.Contains(m.Events[0].Text, "is blocked: Update README waits on Add unit test") {
		t.Errorf("events = %+v, want the blocked one with its reason", m.Events)
	}
}

// The plan's completion says the quick tasks done beside it, as seed 04's
// "All complete!" notification does ("5/5 tasks │ Quick: 3").
func TestPlanHeadline_planCompleteCountsQuickTasks(t *testing.T) {
	e := Event{Kind: KindPlanComplete, Total: 3, Plan: &PlanNews{Kind: KindPlanComplete, Done: 3, Total: 3, Quick: 1}}
	if got, want := planHeadline(e), "completed its plan: all 3 tasks · Quick: 1 done"; got != want {
		t.Fatalf("headline %q, want %q", got, want)
	}
	e.Plan.Quick = 0
	if got, want := planHeadline(e), "completed its plan: all 3 tasks"; got != want {
		t.Fatalf("headline %q, want %q", got, want)
	}
}
