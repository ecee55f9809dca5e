package plan

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
	"github.com/tallyhq/tally/marker"
)

// StaleAfter is how much older than the newest marker a plan has taken a
// marker may be and still be judged: markers of agents working at once
// reach the plan in the order their logs are read, not quite the order
// they were written in, and the rules judge those fairly in any order
// (a step done out of turn is still done). A marker older than that is
// history read late, and is skipped: applying it could rewind the plan.
const StaleAfter = time.Minute

// Marker is a progress marker to apply and where it came from.
type Marker struct {
	tally.Marker
	// Key identifies this marker wherever it is read from (see Key): a
	// marker whose key the ledger holds is not judged again. Empty means
	// the marker has no identity and is judged every time it is given.
	Key string
	// At is when the agent wrote the marker; zero means now (taken while
	// the folder is locked, so such markers are never stale).
	At time.Time
	// By names who wrote it: the session id.
	By string
}

// Key is a marker's identity: the session, the byte offset of the log line
// that holds the message, and the marker's index within the message.
func Key(session string, offset int64, index int) string {
	return tally.MarkerKey(session, "", offset, index)
}

// Text is the marker as an agent writes it (marker.Text).
func Text(m tally.Marker) string { return marker.Text(m) }

// Outcome is what became of one marker, with the ledger entries written
// for it (none for a duplicate).
type Outcome struct {
	Marker  Marker  `json:"-"`
	Text    string  `json:"marker"`
	Verdict Verdict `json:"verdict"`
	Reason  string  `json:"reason,omitempty"`
	Entries []Entry `json:"entries,omitempty"`
}

// Apply applies markers to the plan, in order, as one writer: under the
// folder's lock it reads the plan, judges each marker against the plan as
// the markers before it left it, writes the task files that changed (each
// atomically), keeps scope.yaml current and appends the ledger entries.
//
// A marker is judged once: one whose key the ledger holds is a Duplicate
// and leaves no entry; one older than the newest keyed marker the ledger
// has taken, by more than StaleAfter, is Skipped (history read late must
// not rewind the plan);
// every other one is Applied, Unchanged or Rejected by the rules (see
// Decide), and each of those verdicts is written to the ledger with the
// key. Markers without a key are judged every time they are given and do
// not make others stale.
//
// Task files are written before the ledger: a crash between the two
// leaves the change made and its entry missing, and the marker, read
// again, is rejected as already done; the plan is never rewound or
// advanced twice.
func (f Folder) Apply(markers []Marker) ([]Outcome, error) {
	d, unlock, err := f.lockExisting()
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := f.load(d)
	if err != nil {
		return nil, err
	}
	if err := p.Writable(); err != nil {
		return nil, err
	}
	j := Judge(p, markers, f.now())
	for _, t := range j.Changed {
		if err := f.writeTask(d, t); err != nil {
			return nil, err
		}
	}
	// The plan was there no later than the first marker that used it, so
	// scope entries found now are dated then.
	scope, err := f.keepScope(d, p, j.Earliest, j.Promoted, j.Begun)
	if err != nil {
		return nil, err
	}
	if err := appendLedger(d, append(scope, j.Entries...)); err != nil {
		return nil, writeError("write ledger", err)
	}
	return j.Outcomes, nil
}

// Sync brings scope.yaml and the ledger up to date with the task folders
// there are, once the plan has been made (see keepScope): folders that
// appear or go away change the current count and write a scope_change
// entry. It returns the entries written.
func (f Folder) Sync() ([]Entry, error) {
	d, unlock, err := f.lockExisting()
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := f.load(d)
	if err != nil {
		return nil, err
	}
	if err := p.Writable(); err != nil {
		return nil, err
	}
	entries, err := f.keepScope(d, p, f.now(), nil, false)
	if err != nil {
		return nil, err
	}
	if err := appendLedger(d, entries); err != nil {
		return nil, writeError("write ledger", err)
	}
	return entries, nil
}

// writeError is the error of a plan file that could not be written: a
// refusal (see Refused), or a failure that may pass.
func writeError(op string, err error) error {
	return &tally.Error{Code: tally.CodeUnavailable, Op: op, Err: err}
}

// lockExisting opens the folder, which must exist, locks it, and clears
// what a crashed writer left. unlock lets go of the lock and the folder.
func (f Folder) lockExisting() (*safefile.Dir, func(), error) {
	return f.lockOpen(false)
}

func (f Folder) lockOpen(create bool) (*safefile.Dir, func(), error) {
	d, err := f.open(create)
	if err != nil {
		return nil, nil, err
	}
	unlock, err := lock(d)
	if err != nil {
		d.Close()
		return nil, nil, err
	}
	d.RemoveTemps()
	return d, func() { unlock(); d.Close() }, nil
}

// writeTask writes t's file in its task folder in d, making the folder
// when create is set.
func (f Folder) writeTask(d *safefile.Dir, t *Task) error {
	return f.writeTaskIn(d, t, false)
}

func (f Folder) writeTaskIn(d *safefile.Dir, t *Task, create bool) error {
	data, err := t.render()
	if err != nil {
		return &tally.Error{Code: tally.CodeConflict, Op: "write " + t.fileName(), Err: err}
	}
	sub, err := d.Dir(t.Dir, create)
	if err != nil {
		return writeError("write "+t.fileName(), err)
	}
	defer sub.Close()
	sub.RemoveTemps()
	if err := sub.WriteAtomic(TaskFile, data, 0o644); err != nil {
		return writeError("write "+t.fileName(), err)
	}
	src, err := Parse(t.fileName(), data)
	if err == nil {
		t.src = src.src
	}
	return nil
}

// keepScope compares the task folders with the ones the ledger knows,
// writes scope.yaml if it is missing or out of date, and returns the
// ledger entries that say what changed, dated at. Folders of tasks
// promoted in this batch are counted as promotions, not as planned.
//
// The plan is made — scope.yaml created with original = current = the
// task count, and a plan_created entry — when execution begins: the first
// marker applied (begin). Until then agents (or tally task new) are still
// writing the plan, one file at a time, and every task counts as planned.
func (f Folder) keepScope(d *safefile.Dir, p *Plan, at time.Time, promoted map[string]bool, begin bool) ([]Entry, error) {
	present := slices.Sorted(slices.Values(p.Folders))
	known, hasKnown := p.ledger.knownFolders()
	var entries []Entry
	next := p.Scope
	switch {
	case len(present) == 0 && !p.HasScope && !hasKnown, !begin && !p.HasScope && !hasKnown:
		return nil, nil
	case !hasKnown && !p.HasScope:
		var planned, promo []string
		for _, d := range present {
			if promoted[d[:4]] {
				promo = append(promo, d)
			} else {
				planned = append(planned, d)
			}
		}
		if len(planned) > 0 {
			entries = append(entries, Entry{Type: EntryPlanCreated, At: at, Total: len(planned), Tasks: planned})
		}
		if len(promo) > 0 {
			entries = append(entries, Entry{Type: EntryScopeChange, At: at, From: len(planned), To: len(present), Added: promo, Reason: "promoted from a quick task"})
		}
		next = Scope{Original: len(planned), Current: len(present)}
	case !hasKnown:
		if p.Scope.Current != len(present) {
			entries = append(entries, Entry{Type: EntryScopeChange, At: at, From: p.Scope.Current, To: len(present), Tasks: present,
				Reason: "task folders counted again: the ledger had no list of them"})
		}
		next.Current = len(present)
	default:
		added, removed := diff(present, known), diff(known, present)
		var promo, other []string
		for _, d := range added {
			if promoted[d[:4]] {
				promo = append(promo, d)
			} else {
				other = append(other, d)
			}
		}
		count := len(known)
		if len(promo) > 0 {
			entries = append(entries, Entry{Type: EntryScopeChange, At: at, From: count, To: count + len(promo), Added: promo, Reason: "promoted from a quick task"})
			count += len(promo)
		}
		if len(other) > 0 || len(removed) > 0 {
			entries = append(entries, Entry{Type: EntryScopeChange, At: at, From: count, To: len(present), Added: other, Removed: removed, Reason: "task folders changed"})
		}
		if !p.HasScope {
			next.Original = p.ledger.original
		}
		next.Current = len(present)
	}
	if p.HasScope && next == p.Scope {
		return entries, nil
	}
	if err := d.WriteAtomic(ScopeFile, next.render(p.scopeSrc), 0o644); err != nil {
		return nil, writeError("write "+ScopeFile, err)
	}
	p.Scope, p.HasScope = next, true
	return entries, nil
}

// diff is a minus b.
func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// NewTask is a task to create: its name, goal and steps.
type NewTask struct {
	Name  string
	Goal  string
	Steps []NewStep
}

// NewStep is a step to create: its name and what "done" means for it.
type NewStep struct{ Name, Done string }

// Create adds a task to the plan folder (creating the folder if need be):
// it takes the next id, writes T###-slug/task.yaml atomically with every
// status at its start (planned, pending), and keeps the scope current
// once the plan is under way, all under the folder's lock so two creators
// never take the same id.
func (f Folder) Create(n NewTask) (*Task, error) {
	t := &Task{ID: "T001", Name: strings.TrimSpace(n.Name), Goal: strings.TrimSpace(n.Goal), Status: TaskPlanned}
	for i, s := range n.Steps {
		t.Steps = append(t.Steps, Step{ID: "S" + strconv.Itoa(i+1), Name: strings.TrimSpace(s.Name), Done: strings.TrimSpace(s.Done), Status: StepPending})
	}
	if err := t.checkNew(); err != nil {
		return nil, err
	}
	d, unlock, err := f.lockOpen(true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := f.load(d)
	if err != nil {
		return nil, err
	}
	if err := p.Writable(); err != nil {
		return nil, err
	}
	if t.ID, err = f.nextID(d); err != nil {
		return nil, err
	}
	t.Dir = t.ID
	if slug := Slug(t.Name); slug != "" {
		t.Dir += "-" + slug
	}
	if err := f.writeTaskIn(d, t, true); err != nil {
		return nil, err
	}
	if p, err = f.load(d); err != nil {
		return nil, err
	}
	entries, err := f.keepScope(d, p, f.now(), nil, false)
	if err != nil {
		return nil, err
	}
	if err := appendLedger(d, entries); err != nil {
		return nil, writeError("write ledger", err)
	}
	return t, nil
}

// Slug is a task folder's name after its id: the name in lower case,
// words joined by '-', at most 40 bytes, cut at a word.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if isSlugRune(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	s := b.String()
	for len(s) > 40 {
		i := strings.LastIndexByte(s[:40], '-')
		if i <= 0 {
			s = strings.ToValidUTF8(s[:40], "")
			break
		}
		s = s[:i]
	}
	return s
}

func isSlugRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// checkNew says, in the words of the command that asked, what a new task
// lacks; then checks that its file would be valid.
func (t *Task) checkNew() error {
	invalid := func(format string, args ...any) error {
		return tally.Errorf(tally.CodeInvalid, "new task", format, args...)
	}
	switch {
	case t.Name == "":
		return invalid("a task needs a name")
	case t.Goal == "":
		return invalid("a task needs a goal: what done looks like")
	case len(t.Steps) < MinSteps || len(t.Steps) > MaxSteps:
		return invalid("a task has %d to %d steps, not %d", MinSteps, MaxSteps, len(t.Steps))
	}
	for _, s := range t.Steps {
		if s.Name == "" || s.Done == "" {
			return invalid("step %s needs a name and what done means for it", s.ID)
		}
	}
	data, err := newTaskFile(t)
	if err == nil {
		_, err = Parse(TaskFile, data)
	}
	if err != nil {
		return &tally.Error{Code: tally.CodeInvalid, Op: "new task", Err: err}
	}
	return nil
}
