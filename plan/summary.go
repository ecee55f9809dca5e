package plan

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/valyala/fastjson"
)

// A ledger only grows: an agent's plan lives for months and its ledger
// reaches tens of megabytes, most of it the verdicts on markers. Loading a
// plan folds the ledger as it is read into what the views and the rules
// need of it (ledger), and keeps no entry: the facts of each task, the
// markers judged (a hash of each key), the newest marker taken, the task
// folders the scope entries name. The entries themselves are read again,
// streamed, only by what shows them all (Folder.Entries: the timeline)
// or looks one up (Folder.Judged).

// facts are what the ledger says about each task.
type facts struct {
	started   map[string]time.Time // the last task_activated
	completed map[string]time.Time // the last task_completed
	blocked   map[string]Entry     // the last step_blocked since the task was last activated
	promoted  map[string]bool
	quick     int
}

// ledger is the ledger folded: what the plan keeps of it.
type ledger struct {
	facts
	// keys are the markers the ledger holds a verdict on, shared with
	// the ledgers folded from this one (it only grows).
	keys *keySet
	// newest is when the newest keyed entry was written.
	newest time.Time
	// known are the task folders the scope entries name, after the last
	// of them; hasKnown is false when there is none.
	known    []string
	hasKnown bool
	// original is the task count the plan was made with (its first
	// plan_created).
	original    int
	hasOriginal bool
	// lines counts the complete lines read; entries the entries.
	lines, entries int
	probs          Problems
	// moreProbs counts the problems past maxLedgerProblems.
	moreProbs int
}

// maxLedgerProblems bounds the problems a ledger's lines are reported
// with: a ledger of garbage is one problem, not a million.
const maxLedgerProblems = 100

func newLedger() *ledger {
	return &ledger{facts: facts{started: map[string]time.Time{}, completed: map[string]time.Time{},
		blocked: map[string]Entry{}, promoted: map[string]bool{}}, keys: &keySet{m: map[uint64]struct{}{}}}
}

// grow is a copy of l that may be folded further without changing l:
// its own facts (small: one entry a task), the same key set (which only
// grows, and is safe to share).
func (l *ledger) grow() *ledger {
	n := *l
	n.started, n.completed = maps.Clone(l.started), maps.Clone(l.completed)
	n.blocked, n.promoted = maps.Clone(l.blocked), maps.Clone(l.promoted)
	n.known = slices.Clone(l.known)
	n.probs = slices.Clone(l.probs)
	return &n
}

// problem records a line that is not an entry.
func (l *ledger) problem(p Problem) {
	if len(l.probs) < maxLedgerProblems {
		l.probs = append(l.probs, p)
		return
	}
	l.moreProbs++
}

// problems are the ledger's problems, the ones past the bound counted in
// a last one.
func (l *ledger) problems(name string) Problems {
	out := slices.Clone(l.probs)
	if l.moreProbs > 0 {
		out = append(out, Problem{Path: name, Msg: fmt.Sprintf("%d more %s", l.moreProbs, map[bool]string{true: "line", false: "lines"}[l.moreProbs == 1]) + " that are not ledger entries"})
	}
	return out
}

// add folds one entry, as the parser read it; false when the line is not
// an entry (no type, or a time that is not one).
func (l *ledger) add(v *fastjson.Value) bool {
	typ := v.GetStringBytes("type")
	if len(typ) == 0 {
		return false
	}
	at := func() (time.Time, bool) {
		b := v.GetStringBytes("at")
		if len(b) == 0 {
			return time.Time{}, true
		}
		t, err := time.Parse(time.RFC3339Nano, string(b))
		return t, err == nil
	}
	when, ok := at()
	if !ok {
		return false
	}
	if key := v.GetStringBytes("key"); len(key) > 0 {
		l.keys.add(key)
		if when.After(l.newest) {
			l.newest = when
		}
	}
	l.entries++
	task := func() string { return string(v.GetStringBytes("task")) }
	switch EntryType(typ) {
	case EntryTaskActive:
		t := task()
		l.started[t] = when
		delete(l.blocked, t)
	case EntryTaskDone:
		l.completed[task()] = when
	case EntryStepBlocked:
		e := Entry{Type: EntryStepBlocked, At: when, Task: task(), Step: string(v.GetStringBytes("step")),
			Reason: string(v.GetStringBytes("reason")), Key: string(v.GetStringBytes("key")), By: string(v.GetStringBytes("by"))}
		l.blocked[e.Task] = e
	case EntryTaskPromoted:
		l.promoted[task()] = true
	case EntryQuickTask:
		l.quick++
	case EntryPlanCreated:
		l.known, l.hasKnown = stringsAt(v, "tasks"), true
		if !l.hasOriginal {
			l.original, l.hasOriginal = v.GetInt("total"), true
		}
	case EntryScopeChange:
		if tasks := v.Get("tasks"); tasks != nil && tasks.Type() == fastjson.TypeArray {
			l.known = stringsAt(v, "tasks")
		} else {
			l.known = append(diff(l.known, stringsAt(v, "removed")), diff(stringsAt(v, "added"), l.known)...)
		}
		l.hasKnown = true
	}
	return true
}

// stringsAt is the array of strings at key, nil when there is none.
func stringsAt(v *fastjson.Value, key string) []string {
	var out []string
	for _, x := range v.GetArray(key) {
		if b, err := x.StringBytes(); err == nil {
			out = append(out, string(b))
		}
	}
	return out
}

// knownFolders are the task folders the plan had after the last scope
// entry, sorted.
func (l *ledger) knownFolders() ([]string, bool) {
	known := slices.Clone(l.known)
	slices.Sort(known)
	return known, l.hasKnown
}

// keySet holds the hashes of the markers' keys the ledger judged. A hash
// (with a seed of this process, so no one can aim at a collision) takes
// 8 bytes where a key takes 50; two keys colliding is a chance of about
// a few in 10^8 for a million markers.
type keySet struct {
	mu sync.RWMutex
	m  map[uint64]struct{}
}

var keySeed = maphash.MakeSeed()

func (s *keySet) add(key []byte) {
	h := maphash.Bytes(keySeed, key)
	s.mu.Lock()
	s.m[h] = struct{}{}
	s.mu.Unlock()
}

// has tells whether the ledger judged the marker key.
func (s *keySet) has(key string) bool {
	h := maphash.String(keySeed, key)
	s.mu.RLock()
	_, ok := s.m[h]
	s.mu.RUnlock()
	return ok
}
