package tally

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Flag is a condition that calls a person back to a session: it needs
// input, has stalled, is looping, makes no progress, is blocked, or has
// finished. Package detect finds them. The order is urgency: what a person
// should see first comes first.
type Flag uint8

const (
	FlagNeedsInput Flag = iota
	FlagStalled
	FlagLooping
	FlagNoProgress
	FlagBlocked
	FlagFinished

	flagCount
)

var flagNames = [flagCount]string{
	FlagNeedsInput: "needs_input",
	FlagStalled:    "stalled",
	FlagLooping:    "looping",
	FlagNoProgress: "no_progress",
	FlagBlocked:    "blocked",
	FlagFinished:   "finished",
}

// AllFlags lists every flag in urgency order.
func AllFlags() []Flag {
	out := make([]Flag, flagCount)
	for i := range out {
		out[i] = Flag(i)
	}
	return out
}

func (f Flag) String() string {
	if f < flagCount {
		return flagNames[f]
	}
	return fmt.Sprintf("Flag(%d)", uint8(f))
}

// ParseFlag parses the words String returns; a hyphen may stand for the
// underscore ("needs-input").
func ParseFlag(s string) (Flag, error) {
	w := strings.ReplaceAll(s, "-", "_")
	for i, name := range flagNames {
		if w == name {
			return Flag(i), nil
		}
	}
	return 0, errorf(CodeInvalid, "ParseFlag", "unknown flag %q (want %s)", s, strings.Join(flagNames[:], ", "))
}

func (f Flag) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

func (f *Flag) UnmarshalText(b []byte) error {
	v, err := ParseFlag(string(b))
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// Flags is a set of flags, each with the time it became true. The zero
// value is the empty set. It is a value (no pointers), cheap to copy and
// compare.
type Flags struct {
	set   uint8
	since [flagCount]time.Time
}

// Has tells whether f is in the set.
func (s Flags) Has(f Flag) bool { return f < flagCount && s.set&(1<<f) != 0 }

// Since is when f became true; zero if it is not in the set.
func (s Flags) Since(f Flag) time.Time {
	if !s.Has(f) {
		return time.Time{}
	}
	return s.since[f]
}

// Empty tells whether no flag is set.
func (s Flags) Empty() bool { return s.set == 0 }

// With returns the set with f added, true since at.
func (s Flags) With(f Flag, at time.Time) Flags {
	if f < flagCount {
		s.set |= 1 << f
		s.since[f] = at
	}
	return s
}

// Without returns the set with f removed.
func (s Flags) Without(f Flag) Flags {
	if f < flagCount {
		s.set &^= 1 << f
		s.since[f] = time.Time{}
	}
	return s
}

// List returns the flags in the set in urgency order.
func (s Flags) List() []Flag {
	var out []Flag
	for f := range flagCount {
		if s.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// String lists the set's flags: "needs_input,looping"; "" when empty.
func (s Flags) String() string {
	var b strings.Builder
	for f := range flagCount {
		if s.Has(f) {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(flagNames[f])
		}
	}
	return b.String()
}

// MarshalJSON writes the set as an object from flag to the time it became
// true: {"needs_input":"2026-11-22T14:03:00Z"}. A surface tests a flag with
// flags.needs_input.
func (s Flags) MarshalJSON() ([]byte, error) {
	m := make(map[string]time.Time, flagCount)
	for f := range flagCount {
		if s.Has(f) {
			m[flagNames[f]] = s.since[f]
		}
	}
	return json.Marshal(m)
}

func (s *Flags) UnmarshalJSON(b []byte) error {
	var m map[string]time.Time
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*s = Flags{}
	for name, at := range m {
		f, err := ParseFlag(name)
		if err != nil {
			return err
		}
		*s = s.With(f, at)
	}
	return nil
}
