package plan

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// Two writers share a plan of writersTasks tasks of 8 steps: one completes
// the odd steps, the other the even ones, one marker per Apply. Without
// the lock each would overwrite the other's step in the same file.
const writersTasks = 6

func writersPlan(t testing.TB) Folder {
	var specs []string
	for i := 1; i <= writersTasks; i++ {
		specs = append(specs, fmt.Sprintf("%s-work:8", TaskID(i)))
	}
	f := newFolder(t, specs...)
	f.Now = time.Now
	return f
}

// writerMarkers are writer w's markers (w is 1 or 2): steps of its parity
// in every task, in task order.
func writerMarkers(w int) []Marker {
	var ms []Marker
	for i := 1; i <= writersTasks; i++ {
		for s := w; s <= 8; s += 2 {
			ms = append(ms, Marker{
				Marker: tally.Marker{Task: TaskID(i), Step: fmt.Sprintf("S%d", s), Verb: "done"},
				Key:    Key(fmt.Sprintf("writer%d", w), int64(len(ms)), 0), By: fmt.Sprintf("writer%d", w),
			})
		}
	}
	return ms
}

func runWriter(f Folder, w int) error {
	for _, m := range writerMarkers(w) {
		outs, err := f.Apply([]Marker{m})
		if err != nil {
			return err
		}
		if outs[0].Verdict != Applied {
			return fmt.Errorf("%s: %v %s", outs[0].Text, outs[0].Verdict, outs[0].Reason)
		}
	}
	return nil
}

// checkWriters: no update lost (every step of every task complete), each
// step completed exactly once in the ledger, the plan completed once, and
// the ledger in the order the writers applied their markers.
func checkWriters(t *testing.T, f Folder) {
	t.Helper()
	p := load(t, f)
	if done, total := p.Progress(); done != writersTasks || total != writersTasks || len(p.Problems) != 0 {
		t.Fatalf("progress %d/%d, problems %v\n%s", done, total, p.Problems, ledgerTypes(p))
	}
	completed := map[string]int{}
	last := map[string]int64{}
	all := 0
	var prev time.Time
	for _, e := range p.entries() {
		switch e.Type {
		case EntryStepDone, EntryTaskDone:
			completed[e.Task+"."+e.Step]++
		case EntryAllDone:
			all++
		}
		if e.At.Before(prev) {
			t.Fatalf("ledger out of order at %+v", e)
		}
		prev = e.At
		if e.By != "" {
			var off int64
			fmt.Sscanf(e.Key[strings.Index(e.Key, ":")+1:], "%d", &off)
			if off < last[e.By] {
				t.Fatalf("%s's markers out of order in the ledger", e.By)
			}
			last[e.By] = off
		}
	}
	if len(completed) != 8*writersTasks || all != 1 {
		t.Fatalf("%d steps completed, all_complete %d times", len(completed), all)
	}
	for k, n := range completed {
		if n != 1 {
			t.Fatalf("%s completed %d times", k, n)
		}
	}
}

func TestApply_twoGoroutinesLoseNoUpdate(t *testing.T) {
	f := writersPlan(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for w := 1; w <= 2; w++ {
		wg.Go(func() { errs[w] = runWriter(f, w) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkWriters(t, f)
}

// writerChildEnv makes the test binary one writer of a shared plan:
// "DIR WRITER".
const writerChildEnv = "TALLY_PLAN_WRITER"

func TestApply_twoProcessesLoseNoUpdate(t *testing.T) {
	if spec := os.Getenv(writerChildEnv); spec != "" {
		var dir string
		var w int
		fmt.Sscan(spec, &dir, &w)
		if err := runWriter(Folder{Dir: dir}, w); err != nil {
			t.Fatal(err)
		}
		return
	}
	f := writersPlan(t)
	var cmds []*exec.Cmd
	var outs [3]strings.Builder
	for w := 1; w <= 2; w++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestApply_twoProcessesLoseNoUpdate$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d", writerChildEnv, f.Dir, w))
		cmd.Stdout, cmd.Stderr = &outs[w], &outs[w]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i+1, err, outs[i+1].String())
		}
	}
	checkWriters(t, f)
}

// crashChildEnv makes the test binary a writer that marches a plan
// forward, one marker per Apply, until it is killed.
const crashChildEnv = "TALLY_PLAN_CRASH_CHILD"

const (
	crashTasks   = 6
	crashPadding = 12 << 10 // a comment that makes each task file span pages
)

func crashMarkers() []Marker {
	var ms []Marker
	for i := 1; i <= crashTasks; i++ {
		text := fmt.Sprintf("progress: %s start\n", TaskID(i))
		for s := 1; s <= 8; s++ {
			text += fmt.Sprintf("progress: %s.S%d done\n", TaskID(i), s)
		}
		ms = append(ms, markers("crash", int64(i), time.Time{}, text)...)
	}
	return ms
}

func crashPlan(t testing.TB) Folder {
	f := newFolder(t)
	for i := 1; i <= crashTasks; i++ {
		id := TaskID(i)
		data := "# " + strings.Repeat("padding ", crashPadding/8) + "\n" + taskYAML(id, "big", 8)
		writeTaskFile(t, f.Dir, id+"-big", data)
	}
	f.Now = time.Now
	return f
}

// TestApply_survivesKill kills a writing process with SIGKILL at random
// moments. Every task file must then be one the writer meant to write
// (the one before or after some Apply), never a mix; the folder must
// load, and the next writer must go on from it.
func TestApply_survivesKill(t *testing.T) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		for _, m := range crashMarkers() {
			if _, err := (Folder{Dir: dir}).Apply([]Marker{m}); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("starts child processes")
	}
	// Every version each task file goes through, from a run that is not
	// killed.
	ref := crashPlan(t)
	versions := map[string]map[string]bool{}
	record := func() {
		for i := 1; i <= crashTasks; i++ {
			name := TaskID(i) + "-big/" + TaskFile
			if versions[name] == nil {
				versions[name] = map[string]bool{}
			}
			versions[name][readString(t, filepath.Join(ref.Dir, name))] = true
		}
	}
	record()
	for _, m := range crashMarkers() {
		apply(t, ref, []Marker{m})
		record()
	}
	for round := range 4 {
		f := crashPlan(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestApply_survivesKill$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+f.Dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once the writer is under way: after its first ledger entry.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(f.Dir, LedgerFile)); err == nil || time.Now().After(deadline) {
				break
			}
		}
		time.Sleep(rand.N(300 * time.Millisecond))
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait() //nolint:errcheck // killed on purpose
		for name, ok := range versions {
			if got := readString(t, filepath.Join(f.Dir, name)); !ok[got] {
				t.Fatalf("round %d: %s is torn or unknown (%d bytes)", round, name, len(got))
			}
		}
		p := load(t, f)
		if len(p.Tasks) != crashTasks || len(p.Problems) != 0 {
			t.Fatalf("round %d: %d tasks, problems %v", round, len(p.Tasks), p.Problems)
		}
		done, _ := p.Progress()
		t.Logf("round %d: killed with %d tasks complete, %d ledger entries", round, done, len(p.entries()))
		// The next writer resumes: the markers the killed one applied are
		// duplicates or (if the kill fell between file and ledger) are
		// rejected as already done; the rest apply and the plan completes.
		for _, o := range apply(t, f, crashMarkers()) {
			if o.Verdict == Skipped {
				t.Fatalf("round %d: %s skipped on resume", round, o.Text)
			}
		}
		if got := stateLine(load(t, f)); got != fmt.Sprintf("%d/%d complete", crashTasks, crashTasks) {
			t.Fatalf("round %d: after resuming: %s", round, got)
		}
		if leftover, _ := filepath.Glob(filepath.Join(f.Dir, "*", ".*"+tempSuffix)); len(leftover) != 0 {
			t.Fatalf("round %d: temporary files left: %v", round, leftover)
		}
	}
}
