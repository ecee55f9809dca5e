package plan

import (
	"fmt"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// benchPlan is a large plan: 100 tasks of 8 steps, as agents write them
// (comments, blank lines), the first one active.
func benchPlan(b *testing.B) Folder {
	var specs []string
	for i := 1; i <= 100; i++ {
		specs = append(specs, fmt.Sprintf("%s-task:8", TaskID(i)))
	}
	f := newFolder(b, specs...)
	if _, err := f.Apply([]Marker{{Marker: tally.Marker{Task: "T001", Verb: "start"}, Key: "bench:start"}}); err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkApply applies one marker to a 100-task plan: lock, read the
// plan, judge, rewrite one task file atomically, append to the ledger.
// Each marker is a blocked notice with its own key, so every iteration
// writes a ledger entry and no task runs out of steps; one in two also
// completes a step and rewrites its file. "cached" is how the indexer's
// applier reads the folder (Folder.Cache): only the changed task file is
// parsed, and only the ledger's new lines; "uncached" reads and validates
// every file every time.
func BenchmarkApply(b *testing.B) {
	for _, cached := range []bool{false, true} {
		name := "uncached"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			f := benchPlan(b)
			if cached {
				f.Cache = &Cache{}
			}
			now := t0
			f.Now = func() time.Time { return now }
			i := 0
			for b.Loop() {
				task := TaskID(i/8%100 + 1)
				m := tally.Marker{Task: task, Verb: "blocked", Reason: "bench"}
				if i%2 == 1 {
					m = tally.Marker{Task: task, Step: fmt.Sprintf("S%d", i%8+1), Verb: "done"}
				}
				now = now.Add(time.Second)
				if _, err := f.Apply([]Marker{{Marker: m, Key: Key("bench", int64(i), 0)}}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkLoad reads a 100-task plan folder: every file read and
// validated, or (cached) every file read and none parsed again.
func BenchmarkLoad(b *testing.B) {
	for _, cached := range []bool{false, true} {
		name := "uncached"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			f := benchPlan(b)
			if cached {
				f.Cache = &Cache{}
			}
			for b.Loop() {
				if _, err := f.Load(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecide is the rule table alone on a 100-task plan.
func BenchmarkDecide(b *testing.B) {
	f := benchPlan(b)
	p, err := f.Load()
	if err != nil {
		b.Fatal(err)
	}
	s := StateOf(p)
	m := tally.Marker{Task: "T001", Step: "S1", Verb: "done"}
	for b.Loop() {
		Decide(s, m)
	}
}
