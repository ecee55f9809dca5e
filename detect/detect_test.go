package detect

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

var t0 = time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

const (
	callA = 0xA
	callB = 0xB
	callC = 0xC
)

// calls is n tool calls of the fingerprints in turn, one every 10 s from
// start, each followed by its result (output) 5 s later.
func calls(start time.Duration, n int, fps ...uint64) []Observation {
	var out []Observation
	for i := range n {
		when := start + time.Duration(i)*10*time.Second
		out = append(out, ToolCall(fps[i%len(fps)], at(when)), Output(at(when+5*time.Second)))
	}
	return out
}

// distinct is n tool calls that are all different.
func distinct(start time.Duration, n int) []Observation {
	var out []Observation
	for i := range n {
		out = append(out, ToolCall(uint64(1000+i), at(start+time.Duration(i)*time.Second)))
	}
	return out
}

func seq(parts ...any) []Observation {
	var out []Observation
	for _, p := range parts {
		switch p := p.(type) {
		case Observation:
			out = append(out, p)
		case []Observation:
			out = append(out, p...)
		}
	}
	return out
}

func list(total, open, blocked int, when time.Duration) Observation {
	return ListChanged(ListState{Total: total, Open: open, Stuck: blocked > 0}, at(when))
}

type want map[tally.Flag]time.Duration

func (w want) flags() tally.Flags {
	var f tally.Flags
	for fl, d := range w {
		f = f.With(fl, at(d))
	}
	return f
}

type detectCase struct {
	name  string
	rules Rules
	obs   []Observation
	now   time.Duration
	want  want
}

func runCases(t *testing.T, cases []detectCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.rules
			if r == (Rules{}) {
				r = DefaultRules()
			}
			var s State
			for _, o := range tc.obs {
				r.Observe(&s, o)
			}
			got := r.Flags(&s, at(tc.now))
			if want := tc.want.flags(); got != want {
				t.Errorf("flags = %s\nwant    %s", detail(got), detail(want))
			}
		})
	}
}

func TestRules_stalled(t *testing.T) {
	const m = time.Minute
	var testRun []Observation // a test run printing every 2 minutes for 20 minutes
	testRun = append(testRun, ToolCall(callA, at(0)))
	for i := 1; i <= 10; i++ {
		testRun = append(testRun, Output(at(time.Duration(i)*2*m)))
	}
	runCases(t, []detectCase{
		{name: "a working session silent for 5m is stalled, since then",
			obs: seq(Prompt(at(0)), ToolCall(callA, at(10*time.Second)), Output(at(20*time.Second))),
			now: 20*time.Second + 5*m, want: want{tally.FlagStalled: 20*time.Second + 5*m}},
		{name: "silent 4m59s is not yet stalled",
			obs: seq(Output(at(0))), now: 5*m - time.Second, want: want{}},
		{name: "a long test run is not a stall while its output flows",
			obs: testRun, now: 21 * m, want: want{}},
		{name: "the same test run is a stall once its output stops",
			obs: testRun, now: 25 * m, want: want{tally.FlagStalled: 25 * m}},
		{name: "a session that ended its turn waits for the person; it has not stalled",
			obs: seq(Output(at(0)), TurnEnded(at(time.Second))), now: 10 * m, want: want{}},
		{name: "a prompt after the turn ended is work again, and can stall",
			obs: seq(TurnEnded(at(0)), Prompt(at(m))), now: 7 * m, want: want{tally.FlagStalled: 6 * m}},
		{name: "silent past EndedAfter is over, not stalled",
			obs: seq(Output(at(0))), now: 31 * m, want: want{}},
		{name: "a session that said it ended is not stalled",
			obs: seq(Output(at(0)), Ended(at(time.Second))), now: 10 * m, want: want{}},
		{name: "nothing seen is not stalled", now: 10 * m, want: want{}},
		{name: "stalled_after 0 turns it off",
			rules: Rules{LoopRepeats: 4}, obs: seq(Output(at(0))), now: 10 * m, want: want{}},
	})
}

func TestRules_looping(t *testing.T) {
	runCases(t, []detectCase{
		{name: "one call 4 times in a row is a loop, since the 4th; the results between do not break the run",
			obs: calls(0, 4, callA), now: time.Minute, want: want{tally.FlagLooping: 30 * time.Second}},
		{name: "3 times is not a loop",
			obs: calls(0, 3, callA), now: time.Minute, want: want{}},
		{name: "A-B-A-B until each has come 4 times is a ping-pong loop",
			obs: calls(0, 8, callA, callB), now: 2 * time.Minute, want: want{tally.FlagLooping: 70 * time.Second}},
		{name: "A-B-A-B with each 3 times and a half is not yet",
			obs: calls(0, 7, callA, callB), now: 2 * time.Minute, want: want{}},
		{name: "a loop keeps the time it began while it goes on",
			obs: calls(0, 9, callA), now: 2 * time.Minute, want: want{tally.FlagLooping: 30 * time.Second}},
		{name: "a different call ends the loop",
			obs: seq(calls(0, 5, callA), ToolCall(callC, at(time.Minute))), now: 2 * time.Minute, want: want{}},
		{name: "A-A-B-B-A-A-B-B is neither run nor ping-pong",
			obs: calls(0, 8, callA, callA, callB, callB), now: 2 * time.Minute, want: want{}},
		{name: "A-B-C-A-B-C is not a two-call ping-pong",
			obs: calls(0, 12, callA, callB, callC), now: 3 * time.Minute, want: want{}},
		{name: "a run that ends in A-B-A-B-… counts from where the alternation starts",
			obs: seq(calls(0, 3, callA), calls(30*time.Second, 7, callB, callA)), now: 3 * time.Minute,
			want: want{tally.FlagLooping: 90 * time.Second}},
		{name: "a repeat inside an alternation starts its count again",
			obs: seq(calls(0, 3, callB, callA, callA), calls(30*time.Second, 6, callB, callA)), now: 2 * time.Minute, want: want{}},
		{name: "the end of the session forgets the run",
			obs: seq(calls(0, 3, callA), Ended(at(time.Minute)), Prompt(at(2*time.Minute)), ToolCall(callA, at(3*time.Minute))),
			now: 3 * time.Minute, want: want{}},
		{name: "loop_repeats 0 turns it off",
			rules: Rules{StalledAfter: time.Hour}, obs: calls(0, 10, callA), now: 2 * time.Minute, want: want{}},
		{name: "loop_repeats 2: twice in a row is a loop",
			rules: Rules{LoopRepeats: 2}, obs: calls(0, 2, callA), now: time.Minute, want: want{tally.FlagLooping: 10 * time.Second}},
	})
}

func TestRules_noProgress(t *testing.T) {
	runCases(t, []detectCase{
		{name: "30 calls with no list change while items remain is no progress, since the 30th",
			obs: seq(list(3, 2, 0, 0), distinct(time.Second, 30)), now: time.Minute,
			want: want{tally.FlagNoProgress: 30 * time.Second}},
		{name: "29 calls is not",
			obs: seq(list(3, 2, 0, 0), distinct(time.Second, 29)), now: time.Minute, want: want{}},
		{name: "a list change starts the count again",
			obs: seq(list(3, 2, 0, 0), distinct(time.Second, 20), list(3, 1, 0, 21*time.Second), distinct(22*time.Second, 20)),
			now: time.Minute, want: want{}},
		{name: "calls after every item is done are not no progress",
			obs: seq(list(3, 0, 0, 0), distinct(time.Second, 40)), now: time.Minute, want: want{tally.FlagFinished: 0}},
		{name: "calls in a session with no list are not no progress",
			obs: distinct(0, 40), now: time.Minute, want: want{}},
		{name: "no_progress_calls 0 turns it off",
			rules: Rules{LoopRepeats: 4}, obs: seq(list(3, 2, 0, 0), distinct(time.Second, 40)), now: time.Minute, want: want{}},
	})
}

func TestRules_needsInput(t *testing.T) {
	s := time.Second
	runCases(t, []detectCase{
		{name: "a request for input sets it, since the request",
			obs: seq(Output(at(0)), NeedsInput(at(5*s))), now: time.Minute, want: want{tally.FlagNeedsInput: 5 * s}},
		{name: "needing input is not a stall however long the person takes",
			obs: seq(Output(at(0)), NeedsInput(at(5*s))), now: 20 * time.Minute, want: want{tally.FlagNeedsInput: 5 * s}},
		{name: "work after the request clears it",
			obs: seq(NeedsInput(at(5*s)), ToolCall(callA, at(9*s))), now: 10 * s, want: want{}},
		{name: "a request logged after the work that followed it is already answered",
			obs: seq(Output(at(10*s)), NeedsInput(at(5*s))), now: 20 * s, want: want{}},
		{name: "work at the very instant of the request does not answer it",
			obs: seq(NeedsInput(at(5*s)), ToolCall(callA, at(5*s))), now: 20 * s, want: want{tally.FlagNeedsInput: 5 * s}},
		{name: "a second request keeps the time of the first",
			obs: seq(NeedsInput(at(5*s)), NeedsInput(at(9*s))), now: 20 * s, want: want{tally.FlagNeedsInput: 5 * s}},
		{name: "the end of the session clears it",
			obs: seq(NeedsInput(at(5*s)), Ended(at(9*s))), now: 20 * s, want: want{}},
		{name: "a plain end of turn is not a request for input",
			obs: seq(Output(at(0)), TurnEnded(at(5*s))), now: 20 * s, want: want{}},
	})
}

func TestRules_finishedAndBlocked(t *testing.T) {
	s := time.Second
	runCases(t, []detectCase{
		{name: "all items complete is finished, since that change",
			obs: seq(list(3, 1, 0, 0), list(3, 0, 0, 5*s)), now: time.Minute, want: want{tally.FlagFinished: 5 * s}},
		{name: "an emptied list after finishing stays finished",
			obs: seq(list(3, 0, 0, 5*s), list(0, 0, 0, 9*s)), now: time.Minute, want: want{tally.FlagFinished: 5 * s}},
		{name: "an item added after finishing clears it",
			obs: seq(list(3, 0, 0, 5*s), list(4, 1, 0, 9*s)), now: time.Minute, want: want{}},
		{name: "an empty list is not finished",
			obs: seq(list(0, 0, 0, 5*s)), now: time.Minute, want: want{}},
		{name: "a blocked item sets blocked, since the change that blocked it",
			obs: seq(list(3, 3, 0, 0), list(3, 3, 1, 5*s), list(3, 2, 1, 9*s)), now: time.Minute, want: want{tally.FlagBlocked: 5 * s}},
		{name: "unblocking clears it",
			obs: seq(list(3, 3, 1, 5*s), list(3, 3, 0, 9*s)), now: time.Minute, want: want{}},
		{name: "the end of a session keeps finished and blocked: they are facts of the list",
			obs: seq(list(3, 0, 0, 5*s), Ended(at(9*s))), now: time.Minute, want: want{tally.FlagFinished: 5 * s}},
	})
}

func TestListOf(t *testing.T) {
	blocked := tally.Marker{Task: "T001", Step: "S2", Verb: "blocked"}
	item := func(id, title string, st tally.Status, by ...string) tally.Item {
		return tally.Item{ID: id, Title: title, Status: st, BlockedBy: by}
	}
	two := []tally.Item{item("1", "a", tally.StatusInProgress), item("2", "b", tally.StatusPending)}
	for _, tc := range []struct {
		name    string
		items   []tally.Item
		markers []tally.Marker
		want    ListState
	}{
		{"open is total less done", []tally.Item{item("1", "a", tally.StatusCompleted), item("2", "b", tally.StatusPending)}, nil,
			ListState{Total: 2, Open: 1}},
		{"an item waiting on an open one while another is in progress is not stuck",
			[]tally.Item{item("1", "a", tally.StatusInProgress), item("2", "b", tally.StatusPending), item("3", "c", tally.StatusPending, "2")}, nil,
			ListState{Total: 3, Open: 3}},
		{"an item set blocked is stuck", []tally.Item{item("1", "a", tally.StatusBlocked)}, nil, ListState{Total: 1, Open: 1, Stuck: true}},
		{"a blocked: marker is stuck", two, []tally.Marker{blocked}, ListState{Total: 2, Open: 2, Stuck: true}},
		{"a later marker for the same step lifts it",
			two, []tally.Marker{blocked, {Task: "T001", Step: "S2", Verb: "start"}}, ListState{Total: 2, Open: 2}},
		{"a later marker for another step does not",
			two, []tally.Marker{blocked, {Task: "T001", Step: "S3", Verb: "done"}}, ListState{Total: 2, Open: 2, Stuck: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ListOf(tc.items, tc.markers); got != tc.want {
				t.Errorf("ListOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestFromSignal(t *testing.T) {
	for sig, want := range map[tally.Signal]Kind{
		tally.SignalWorking: KindOutput, tally.SignalWaiting: KindTurnEnded, tally.SignalEnded: KindEnded, tally.SignalAsking: KindNeedsInput,
	} {
		if o, ok := FromSignal(sig, t0); !ok || o.Kind != want || !o.At.Equal(t0) {
			t.Errorf("FromSignal(%v) = %v %v, want %v", sig, o.Kind, ok, want)
		}
	}
	if _, ok := FromSignal(tally.SignalNone, t0); ok {
		t.Error("SignalNone made an observation")
	}
}

func TestRules_Due(t *testing.T) {
	r := DefaultRules()
	var s State
	if d := r.Due(&s, t0); !d.IsZero() {
		t.Errorf("Due of an empty state = %v", d)
	}
	r.Observe(&s, Output(at(0)))
	if d := r.Due(&s, at(time.Minute)); !d.Equal(at(5 * time.Minute)) {
		t.Errorf("Due while working = %v, want the stall", d)
	}
	if d := r.Due(&s, at(6*time.Minute)); !d.Equal(at(30 * time.Minute)) {
		t.Errorf("Due while stalled = %v, want the end", d)
	}
	if d := r.Due(&s, at(31*time.Minute)); !d.IsZero() {
		t.Errorf("Due after the end = %v", d)
	}
	r.Observe(&s, TurnEnded(at(31*time.Minute)))
	if d := r.Due(&s, at(31*time.Minute)); !d.IsZero() {
		t.Errorf("Due while waiting for the person = %v", d)
	}
}

func TestState_JSONRoundTrip(t *testing.T) {
	r := DefaultRules()
	var s State
	for _, o := range seq(Prompt(at(0)), list(3, 2, 1, time.Second), calls(2*time.Second, 5, callA, callB), NeedsInput(at(time.Minute))) {
		r.Observe(&s, o)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("read back %+v\nwant      %+v\nfrom %s", back, s, b)
	}
	for _, bad := range []string{`{"calls":[1,2,3]}`, `{"same":2000000000}`, `[]`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("read %s", bad)
		}
	}
}

func TestFingerprint(t *testing.T) {
	a := Fingerprint("Bash", []byte(`{"command":"go test ./..."}`))
	if a != Fingerprint("Bash", []byte(`{"command":"go test ./..."}`)) {
		t.Fatal("the same call hashed differently")
	}
	if b := Fingerprint([]byte("Bash"), []byte(`{"command":"go test ./..."}`)); b != a {
		t.Errorf("the name as bytes hashes to %#x, as a string to %#x", b, a)
	}
	// Pinned: a stored State must mean the same after an upgrade.
	const pinned = 0x5817c7a7e68ae4cb
	if a != pinned {
		t.Errorf("Fingerprint = %#x, want %#x", a, uint64(pinned))
	}
	for _, other := range []uint64{
		Fingerprint("Bash", []byte(`{"command":"go test ./"}`)),
		Fingerprint("Read", []byte(`{"command":"go test ./..."}`)),
		Fingerprint("Bas", []byte(`h{"command":"go test ./..."}`)),
	} {
		if other == a {
			t.Errorf("a different call has the same fingerprint %#x", a)
		}
	}
}

// detail shows a set of flags with the time each began.
func detail(f tally.Flags) string {
	var parts []string
	for _, fl := range f.List() {
		parts = append(parts, fl.String()+"@"+f.Since(fl).Format(time.TimeOnly))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
