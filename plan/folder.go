package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
)

// The layout of a plan folder.
const (
	// DefaultDir is where a project keeps its plan, relative to the
	// project's root.
	DefaultDir = "docs/por"
	TaskFile   = "task.yaml"
	ScopeFile  = "scope.yaml"
	LedgerFile = "ledger.jsonl"
)

// taskDirPattern is a task folder's name: the task id, then an optional
// "-slug".
var taskDirPattern = regexp.MustCompile(`^T(\d{3})(-.+)?$`)

// Folder is one project's plan folder.
type Folder struct {
	Dir string
	// Root is the project's folder, which Dir must lie inside; "" is
	// Dir's parent. Every folder from Root down to Dir must be the user's
	// (see open).
	Root string
	// Now is the clock for entries that no marker dates (scope changes)
	// and for markers given without a time; nil means time.Now.
	Now func() time.Time
	// Cache, when set, makes reading the folder again cost what changed
	// since the last read (see Cache). Nil reads everything every time.
	Cache *Cache
}

func (f Folder) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// Plan is a plan folder as read at one moment: what the files say. What
// is derived from them (progress, current steps, what is blocked, when a
// task started) is computed by its methods. A loaded Plan is not changed
// by them, so surfaces may share one across goroutines.
type Plan struct {
	Dir   string
	Tasks []*Task // the valid tasks, by id
	// Invalid says, by task id, why a task folder cannot be used: its
	// task.yaml has problems, or two folders claim the id.
	Invalid map[string]string
	// Folders are the task folders holding a task.yaml, valid or not:
	// what the scope counts.
	Folders []string
	// Scope is scope.yaml; HasScope is false when there is none yet.
	Scope    Scope
	HasScope bool
	// Problems lists everything wrong in the folder, by file and line.
	Problems Problems
	// unsafe is why the folder may be read but not written: scope.yaml or
	// the ledger is something Tally refuses to touch (see open).
	unsafe error

	scopeSrc *scopeSource
	// ledger is what the plan keeps of ledger.jsonl (see ledger); the
	// entries themselves are Folder.Entries.
	ledger *ledger
}

// Load reads the plan folder. A folder with problems still loads: its
// problems are in Plan.Problems. The error is for a folder that cannot be
// read at all (not found when it does not exist; see Refused for one
// Tally refuses to read).
func (f Folder) Load() (*Plan, error) {
	d, err := f.open(false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return f.load(d)
}

// load reads the plan in the open folder d.
func (f Folder) load(d *safefile.Dir) (*Plan, error) {
	p := &Plan{Dir: f.Dir, Invalid: map[string]string{}}
	if err := p.readTasks(d, f.Cache); err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "read plan", Err: err}
	}
	if err := p.readScope(d); err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "read plan", Err: err}
	}
	l, err := readLedger(d, LedgerFile, f.Cache)
	switch {
	case Refused(err):
		p.refuse(LedgerFile, err)
		l = newLedger()
	case err != nil:
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "read ledger", Err: err}
	}
	p.ledger = l
	p.Problems = append(p.Problems, l.problems(LedgerFile)...)
	p.Problems.sorted()
	return p, nil
}

// refuse records a file of Tally's own (scope.yaml, the ledger) that Tally
// refuses to touch: a problem, and the reason nothing is written.
func (p *Plan) refuse(name string, err error) {
	p.Problems = append(p.Problems, problemOf(name, err))
	if p.unsafe == nil {
		p.unsafe = refusal("write plan", err)
	}
}

// Writable is nil when Tally may write the plan's files, else why not
// (see Refused).
func (p *Plan) Writable() error { return p.unsafe }

func (p *Plan) readTasks(d *safefile.Dir, c *Cache) error {
	des, err := d.ReadDir()
	if err != nil {
		return err
	}
	byID := map[string][]string{}
	present := map[string]bool{}
	for _, de := range des {
		m := taskDirPattern.FindStringSubmatch(de.Name())
		if m == nil {
			continue
		}
		id := "T" + m[1]
		if de.Type()&fs.ModeSymlink != 0 {
			p.invalid(id, Problems{problemOf(de.Name(), &safefile.RefusedError{Path: de.Name(), Reason: "is a symbolic link"})})
			continue
		}
		if !de.IsDir() {
			continue
		}
		name := de.Name() + "/" + TaskFile
		data, err := readTaskFile(d, de.Name())
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		p.Folders = append(p.Folders, de.Name())
		byID[id] = append(byID[id], de.Name())
		if err != nil {
			p.invalid(id, Problems{problemOf(name, err)})
			continue
		}
		present[de.Name()] = true
		t, probs := c.task(de.Name(), name, data)
		if probs != nil {
			p.invalid(id, probs)
			continue
		}
		if t.ID != id {
			p.invalid(id, Problems{{Path: name, Line: t.src.lineOf("id"), Msg: fmt.Sprintf("task id %q does not match its folder %s", t.ID, de.Name())}})
			continue
		}
		p.Tasks = append(p.Tasks, t)
	}
	c.keepTasks(present)
	for id, dirs := range byID {
		if len(dirs) < 2 {
			continue
		}
		p.Tasks = slices.DeleteFunc(p.Tasks, func(t *Task) bool { return t.ID == id })
		for _, d := range dirs {
			p.invalid(id, Problems{{Path: d + "/" + TaskFile, Msg: fmt.Sprintf("duplicate task id %s (folders %v)", id, dirs)}})
		}
	}
	slices.SortFunc(p.Tasks, func(a, b *Task) int { return strings.Compare(a.ID, b.ID) })
	return nil
}

// readTaskFile reads the task file of task folder dir in d.
func readTaskFile(d *safefile.Dir, dir string) ([]byte, error) {
	sub, err := d.Dir(dir, false)
	if err != nil {
		return nil, err
	}
	defer sub.Close()
	return readFile(sub, TaskFile)
}

// invalid records why task id cannot be used: its first problem.
func (p *Plan) invalid(id string, probs Problems) {
	p.Problems = append(p.Problems, probs...)
	if _, seen := p.Invalid[id]; !seen && len(probs) > 0 {
		p.Invalid[id] = probs[0].String()
	}
}

func (p *Plan) readScope(d *safefile.Dir) error {
	data, err := readFile(d, ScopeFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case Refused(err):
		p.refuse(ScopeFile, err)
		return nil
	case err != nil:
		return err
	}
	s, src, err := parseScope(ScopeFile, data)
	if err != nil {
		p.Problems = append(p.Problems, err.(Problems)...)
		return nil
	}
	p.Scope, p.HasScope, p.scopeSrc = s, true, src
	return nil
}

// Task returns the valid task with id, or nil.
func (p *Plan) Task(id string) *Task {
	i, ok := slices.BinarySearchFunc(p.Tasks, id, func(t *Task, id string) int { return strings.Compare(t.ID, id) })
	if !ok {
		return nil
	}
	return p.Tasks[i]
}

// NextID is the id a new task gets: one more than the highest task
// folder's number, T001 in an empty folder.
func (f Folder) NextID() (string, error) {
	d, err := f.open(false)
	if tally.ErrorCode(err) == tally.CodeNotFound {
		return TaskID(1), nil
	}
	if err != nil {
		return "", err
	}
	defer d.Close()
	return f.nextID(d)
}

func (f Folder) nextID(d *safefile.Dir) (string, error) {
	des, err := d.ReadDir()
	if err != nil {
		return "", err
	}
	high := 0
	for _, de := range des {
		if m := taskDirPattern.FindStringSubmatch(de.Name()); m != nil && (de.IsDir() || de.Type()&fs.ModeSymlink != 0) {
			n, _ := strconv.Atoi(m[1])
			high = max(high, n)
		}
	}
	if high >= 999 {
		return "", tally.Errorf(tally.CodeConflict, "number task", "%s already has T999: task ids have three digits", f.Dir)
	}
	return TaskID(high + 1), nil
}

// lineOf is the line of a top-level key's value, 0 if it has none.
func (s *source) lineOf(key string) int {
	if v := mappingValue(s.root, key); v != nil {
		return v.Line
	}
	return 0
}
