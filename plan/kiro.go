package plan

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
)

// Kiro (AWS's agentic editor) keeps a repository's plans as specs, one
// folder each under .kiro/specs/<name>/: requirements.md, design.md and
// tasks.md, the implementation plan, a Markdown checklist the agent ticks
// as it works:
//
//	- [x] 1. Set up the project structure
//	  - [x] 1.1 Create the module
//	- [-] 2. Implement the data models
//	- [ ] 3. Wire the API
//
// Such a project has a plan even with no docs/por: LoadKiro reads it as
// one, each spec a task (named by its folder) and each top-level item of
// its tasks.md a step, "[x]" complete, "[-]" in progress, anything else
// pending. Kiro owns the files: the plan is read only, never written, and
// markers are not applied to it (Plan.Writable says why). Everything is
// read through package safefile, as a plan folder is.

// KiroSpecs is where Kiro keeps a project's specs, below the project.
const KiroSpecs = ".kiro/specs"

// KiroTasks is a spec's implementation plan.
const KiroTasks = "tasks.md"

// errKiroReadOnly is why a Kiro plan is not written.
var errKiroReadOnly = errors.New("a Kiro spec is Kiro's own: Tally reads its tasks.md and writes nothing")

// LoadKiro reads the Kiro specs of the project rooted at root; not found
// (tally.CodeNotFound) when it has none.
func LoadKiro(root string) (*Plan, error) {
	dir := filepath.Join(root, KiroSpecs)
	f := Folder{Dir: dir, Root: root}
	d, err := f.open(false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	des, err := d.ReadDir()
	if err != nil {
		return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "read Kiro specs", Err: err}
	}
	sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
	p := &Plan{Dir: dir, Invalid: map[string]string{}, unsafe: &tally.Error{Code: tally.CodeUnavailable, Op: "write plan", Err: errKiroReadOnly}}
	for _, de := range des {
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		data, err := readKiroTasks(d, de.Name())
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // a spec still at its requirements or design
		case err != nil:
			p.Problems = append(p.Problems, problemOf(filepath.Join(de.Name(), KiroTasks), err))
			continue
		}
		p.Folders = append(p.Folders, de.Name())
		t := kiroTask(de.Name(), string(data))
		t.ID = TaskID(len(p.Tasks) + 1)
		p.Tasks = append(p.Tasks, t)
	}
	p.Problems.sorted()
	return p, nil
}

// readKiroTasks reads spec's tasks.md in the specs folder d.
func readKiroTasks(d *safefile.Dir, spec string) ([]byte, error) {
	sd, err := d.Dir(spec, false)
	if err != nil {
		return nil, err
	}
	defer sd.Close()
	return readFile(sd, KiroTasks)
}

// kiroTask reads a spec's tasks.md: its top-level checklist items are the
// steps; the task is complete when they all are, active once one is begun.
func kiroTask(name, text string) *Task {
	t := &Task{Name: name, Dir: name, Status: TaskPlanned}
	indent := -1
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimLeft(line, " \t")
		step, optional, ok := kiroItem(trimmed)
		if !ok {
			continue
		}
		in := len(line) - len(trimmed)
		if indent < 0 {
			indent = in
		}
		if in > indent {
			continue // a sub-task: its parent's box says where the step is
		}
		if optional && step.Status != StepComplete {
			continue // work the spec can finish without
		}
		step.ID = "S" + strconv.Itoa(len(t.Steps)+1)
		t.Steps = append(t.Steps, step)
	}
	done, begun := 0, false
	for _, s := range t.Steps {
		switch s.Status {
		case StepComplete:
			done++
			begun = true
		case StepInProgress:
			begun = true
		case StepPending:
		}
	}
	switch {
	case len(t.Steps) > 0 && done == len(t.Steps):
		t.Status = TaskComplete
	case begun:
		t.Status = TaskActive
	}
	return t
}

// kiroItem reads "- [x] 1. Text" (or "* [ ] …"): the step's name, the
// item's number dropped, and its status. optional is true for an item
// marked optional by a star after its box ("- [ ]* 4. Write the property
// tests"), as Kiro's task lists mark work a spec is finished without.
func kiroItem(s string) (step Step, optional, ok bool) {
	rest, ok := strings.CutPrefix(s, "- [")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "* ["); !ok {
			return Step{}, false, false
		}
	}
	if len(rest) < 2 || rest[1] != ']' {
		return Step{}, false, false
	}
	st := StepPending
	switch rest[0] {
	case 'x', 'X':
		st = StepComplete
	case '-':
		st = StepInProgress
	}
	name, optional := strings.CutPrefix(rest[2:], "*")
	name = strings.TrimSpace(name)
	if i := strings.IndexByte(name, ' '); i > 0 && strings.Trim(name[:i], "0123456789.") == "" && strings.HasSuffix(name[:i], ".") {
		name = strings.TrimSpace(name[i+1:])
	}
	name = strings.Trim(name, "*_` ")
	if name == "" {
		return Step{}, false, false
	}
	return Step{Name: name, Status: st}, optional, true
}
