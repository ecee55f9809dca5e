package plan

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// sameLoad fails unless the cached folder reads exactly as an uncached
// read of the same folder.
func sameLoad(t *testing.T, cached Folder) *Plan {
	t.Helper()
	got := load(t, cached)
	plain := cached
	plain.Cache = nil
	want := load(t, plain)
	g, _ := json.Marshal(struct {
		*Plan
		Ledger   any
		Problems Problems
	}{got, folded(got.ledger), got.Problems})
	w, _ := json.Marshal(struct {
		*Plan
		Ledger   any
		Problems Problems
	}{want, folded(want.ledger), want.Problems})
	if string(g) != string(w) {
		t.Fatalf("cached read:\n%s\nuncached read:\n%s", g, w)
	}
	return got
}

// A cached read is the read it saves: after an agent edits a task file in
// place, a task folder goes away, another process appends to the ledger,
// a line is torn, or the ledger is rewritten, the cached folder reads as
// the files say.
func TestCache_readsWhatTheFilesSay(t *testing.T) {
	f := newFolder(t, "T001-a:2", "T002-b:3", "T003-c:2")
	f.Cache = &Cache{}
	ledger := filepath.Join(f.Dir, LedgerFile)
	other := f
	other.Cache = nil

	sameLoad(t, f)
	apply(t, f, markers("s1", 1, t0, "progress: T001 start"))
	sameLoad(t, f)

	// Another writer (no cache of its own) moves the plan on.
	apply(t, other, markers("s2", 1, t0.Add(time.Second), "progress: T001.S1 done"))
	if p := sameLoad(t, f); p.Task("T001").Current().ID != "S2" {
		t.Fatalf("the cache missed another writer's change: %+v", p.Task("T001").Steps)
	}

	// The agent rewrites a task file in place, keeping its size.
	path := filepath.Join(f.Dir, "T002-b", TaskFile)
	data := readString(t, path)
	if err := os.WriteFile(path, []byte(strings.Replace(data, "name: b", "name: B", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := sameLoad(t, f); p.Task("T002").Name != "B" {
		t.Fatalf("name %q after an edit in place", p.Task("T002").Name)
	}

	// A task folder goes away; a broken file is a problem, cached or not.
	if err := os.RemoveAll(filepath.Join(f.Dir, "T003-c")); err != nil {
		t.Fatal(err)
	}
	writeTaskFile(t, f.Dir, "T004-d", "id: T004\nsteps: [")
	if p := sameLoad(t, f); len(p.Tasks) != 2 || p.Invalid["T004"] == "" {
		t.Fatalf("tasks %d, invalid %v", len(p.Tasks), p.Invalid)
	}

	// A torn line, then an append that starts a fresh line.
	appendString(t, ledger, `{"type":"step_compl`)
	sameLoad(t, f)
	apply(t, other, markers("s2", 2, t0.Add(2*time.Second), "progress: T001.S2 blocked: waiting"))
	if p := sameLoad(t, f); len(p.Problems) != 2 { // the torn line and T004
		t.Fatalf("problems %v", p.Problems)
	}

	// The ledger rewritten whole, longer than before.
	var b strings.Builder
	for range 20 {
		b.WriteString(`{"type":"quick_task","at":"2024-01-16T10:00:00Z","description":"typo"}` + "\n")
	}
	if err := os.WriteFile(ledger, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := sameLoad(t, f); p.QuickTasks() != 20 || p.ledger.entries != 20 {
		t.Fatalf("after a rewrite: %d entries, %d quick tasks", p.ledger.entries, p.QuickTasks())
	}
	if err := os.Remove(ledger); err != nil {
		t.Fatal(err)
	}
	if p := sameLoad(t, f); p.ledger.entries != 0 {
		t.Fatalf("ledger removed, %d entries read", p.ledger.entries)
	}
}

// Plans loaded through one cache are shared by surfaces while markers are
// applied: applying never changes a plan already loaded.
func TestCache_loadedPlanIsNeverChanged(t *testing.T) {
	f := newFolder(t, "T001-a:8")
	f.Cache = &Cache{}
	before := load(t, f)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	wg.Go(func() {
		for i := range 8 {
			if _, err := f.Apply(markers("s", int64(i), t0.Add(time.Duration(i)*time.Second), "progress: T001.S"+string(rune('1'+i))+" done")); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Go(func() {
		for range 50 {
			p, err := f.Load()
			if err != nil {
				errs <- err
				return
			}
			p.Progress()
			p.Progress()
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if done, _ := before.Task("T001").Progress(); done != 0 || before.Task("T001").Status != TaskPlanned {
		t.Fatalf("a plan loaded before was changed: %d done, %s", done, before.Task("T001").Status)
	}
	if p := sameLoad(t, f); stateLine(p) != "1/1 complete" {
		t.Fatalf("panel %q", stateLine(p))
	}
}

func appendString(t *testing.T, path, s string) {
	t.Helper()
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// folded is what a ledger folded to, for comparing two reads: every fact,
// and the key set as a sorted list.
func folded(l *ledger) any {
	l.keys.mu.RLock()
	keys := slices.Sorted(maps.Keys(l.keys.m))
	l.keys.mu.RUnlock()
	return struct {
		Started, Completed map[string]time.Time
		Blocked            map[string]Entry
		Promoted           map[string]bool
		Quick              int
		Keys               []uint64
		Newest             time.Time
		Known              []string
		HasKnown           bool
		Original, Lines    int
		Entries            int
	}{l.started, l.completed, l.blocked, l.promoted, l.quick, keys, l.newest, l.known, l.hasKnown, l.original, l.lines, l.entries}
}

// A ledger of garbage is a bounded list of problems and a count of the
// rest, not one problem a line held in memory; its entries still count.
func TestLoad_aGarbageLedgerIsBoundedProblems(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	var b strings.Builder
	for i := range 10_000 {
		b.WriteString("not an entry\n")
		if i%1000 == 0 {
			b.WriteString(`{"type":"quick_task","at":"2024-01-16T10:00:00Z","description":"typo"}` + "\n")
		}
	}
	if err := os.WriteFile(filepath.Join(f.Dir, LedgerFile), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := load(t, f)
	if len(p.Problems) != maxLedgerProblems+1 || !strings.Contains(p.Problems.Error(), "9900 more lines that are not ledger entries") {
		t.Fatalf("%d problems:\n%v", len(p.Problems), p.Problems.Error())
	}
	if p.QuickTasks() != 10 {
		t.Fatalf("%d quick tasks, want the 10 entries among the garbage", p.QuickTasks())
	}
}
