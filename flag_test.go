package tally

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var flagT0 = time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)

func TestFlag_StringParse(t *testing.T) {
	for _, f := range AllFlags() {
		got, err := ParseFlag(f.String())
		if err != nil || got != f {
			t.Errorf("ParseFlag(%q) = %v, %v", f.String(), got, err)
		}
	}
	if f, err := ParseFlag("needs-input"); err != nil || f != FlagNeedsInput {
		t.Errorf("ParseFlag(needs-input) = %v, %v", f, err)
	}
	if _, err := ParseFlag("stuck"); err == nil || !strings.Contains(err.Error(), "needs_input, stalled") {
		t.Errorf("ParseFlag(stuck) = %v, want an error listing the flags", err)
	}
	if got := Flag(99).String(); got != "Flag(99)" {
		t.Errorf("Flag(99) = %q", got)
	}
}

func TestFlags_JSON(t *testing.T) {
	f := Flags{}.With(FlagLooping, flagT0.Add(time.Minute)).With(FlagNeedsInput, flagT0)
	if got := f.String(); got != "needs_input,looping" {
		t.Errorf("String = %q, want urgency order", got)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"looping":"2026-11-22T14:01:00Z","needs_input":"2026-11-22T14:00:00Z"}`
	if string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	var back Flags
	if err := json.Unmarshal(b, &back); err != nil || back != f {
		t.Errorf("read back %v (%v), want %v", back, err, f)
	}
	if err := json.Unmarshal([]byte(`{"stuck":"2026-11-22T14:00:00Z"}`), &back); err == nil {
		t.Error("an unknown flag was read")
	}
	if b, _ := json.Marshal(Flags{}); string(b) != "{}" {
		t.Errorf("empty set = %s, want {}", b)
	}
}

func TestRecord_FlagsAt(t *testing.T) {
	at := func(d time.Duration) time.Time { return flagT0.Add(d) }
	const m = time.Minute
	looping := Flags{}.With(FlagLooping, at(m))
	for _, tc := range []struct {
		name string
		rec  Record
		now  time.Duration
		want string
	}{
		{"a working session is stalled from StallAt on, since then",
			Record{Signal: SignalWorking, LastActivity: at(0), StallAt: at(5 * m), Flags: looping}, 6 * m, "stalled@14:05 looping@14:01"},
		{"not before",
			Record{Signal: SignalWorking, LastActivity: at(0), StallAt: at(5 * m)}, 4 * m, ""},
		{"a session over by the clock is not stalled",
			Record{Signal: SignalWorking, LastActivity: at(0), StallAt: at(5 * m)}, 31 * m, ""},
		{"a hook's mark (signal asking) needs input since the mark, and is no stall",
			Record{Signal: SignalAsking, LastActivity: at(2 * m), StallAt: at(5 * m)}, 6 * m, "needs_input@14:02"},
		{"needs input keeps the time detection saw the request",
			Record{Signal: SignalAsking, LastActivity: at(2 * m), Flags: Flags{}.With(FlagNeedsInput, at(m))}, 6 * m, "needs_input@14:01"},
		{"needs input ends with the signal",
			Record{Signal: SignalWorking, LastActivity: at(2 * m), Flags: Flags{}.With(FlagNeedsInput, at(m))}, 3 * m, ""},
		{"a stored stall is never taken as is",
			Record{Signal: SignalWaiting, LastActivity: at(0), Flags: Flags{}.With(FlagStalled, at(m))}, 3 * m, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.rec.FlagsAt(at(tc.now))
			var got []string
			for _, fl := range f.List() {
				got = append(got, fl.String()+"@"+f.Since(fl).Format("15:04"))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("FlagsAt = %q, want %q", s, tc.want)
			}
			if s := tc.rec.Session(at(tc.now)); s.Flags != f {
				t.Errorf("Session.Flags = %v, want FlagsAt's %v", s.Flags, f)
			}
		})
	}
}
