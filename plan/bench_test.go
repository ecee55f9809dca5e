package plan

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// largeLedgerPlan is a plan of 20 tasks whose ledger a long life made
// about 95 MB: 520,000 entries, most of them verdicts on markers (each
// keyed, a few with long reasons) and the rest the steps and tasks they
// moved.
func largeLedgerPlan(b *testing.B) (Folder, int64) {
	f := Folder{Dir: filepath.Join(b.TempDir(), "docs", "por"), Now: func() time.Time { return t0 }}
	for i := 1; i <= 20; i++ {
		writeTaskFile(b, f.Dir, fmt.Sprintf("%s-task", TaskID(i)), taskYAML(TaskID(i), "task", 8))
	}
	w, err := os.Create(filepath.Join(f.Dir, LedgerFile))
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	at := t0.Add(-520_000 * time.Second)
	enc.Encode(Entry{Type: EntryPlanCreated, At: at, Total: 20, Tasks: func() (ds []string) {
		for i := 1; i <= 20; i++ {
			ds = append(ds, TaskID(i)+"-task")
		}
		return ds
	}()})
	reason := strings.Repeat("the step cannot go on until the service answers; ", 2)
	for i := range 520_000 {
		at = at.Add(time.Second)
		task := TaskID(i%20 + 1)
		key := Key(fmt.Sprintf("session-%04d", i/1000), int64(i)*4096, 0)
		switch i % 4 {
		case 0:
			enc.Encode(Entry{Type: EntryStepBlocked, At: at, Task: task, Step: "S2", Reason: reason, Key: key, By: "session"})
		case 1:
			enc.Encode(Entry{Type: EntryRejected, At: at, Task: task, Step: "S1", Reason: task + ".S1 is already complete", Marker: "progress: " + task + ".S1 done", Key: key, By: "session"})
		case 2:
			enc.Encode(Entry{Type: EntryUnchanged, At: at, Task: task, Reason: task + " is already active", Marker: "progress: " + task + " start", Key: key, By: "session"})
		default:
			enc.Encode(Entry{Type: EntryQuickTask, At: at, Description: "a quick fix of the build while waiting on " + task, Key: key})
		}
	}
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	w.Close()
	fi, _ := os.Stat(filepath.Join(f.Dir, LedgerFile))
	return f, fi.Size()
}

// BenchmarkLargeLedger: what tally task (Load) and tally marker (Apply)
// cost on a plan whose ledger is about 95 MB, read cold as a command does
// (no cache). Reports the heap in use once the plan is loaded.
func BenchmarkLargeLedger(b *testing.B) {
	f, size := largeLedgerPlan(b)
	b.Logf("the ledger: %d MiB", size>>20)
	b.Run("task", func(b *testing.B) {
		b.ReportAllocs()
		var peak uint64
		for b.Loop() {
			p, err := f.Load()
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			runtime.KeepAlive(p)
		}
		b.ReportMetric(float64(peak)/(1<<20), "heap-MiB-loaded")
	})
	b.Run("marker", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			// A marker already judged (its key is in the ledger), as a
			// message given again is: nothing written, the ledger kept.
			m := Marker{Marker: tally.Marker{Task: "T001", Step: "S1", Verb: "done"}, Key: Key("session-0000", 4096, 0)}
			if _, err := f.Apply([]Marker{m}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
