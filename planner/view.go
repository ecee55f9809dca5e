package planner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planview"
)

// View is a project's plan as the board and the terminal show it: the
// progress of its tasks, the line of the collapsed Task Panel, and the
// task under way with its step.
type View struct {
	Project string            `json:"project"`
	Folder  string            `json:"folder"`
	Done    int               `json:"done"`
	Total   int               `json:"total"`
	Percent int               `json:"percent"`
	Line    string            `json:"line"`
	Stage   Stage             `json:"stage"`
	Active  *ActiveTask       `json:"active,omitempty"`
	Blocked *planview.Blocked `json:"blocked,omitempty"`
	// Quick counts the quick tasks done beside the plan (its ledger's
	// quick_task entries).
	Quick int `json:"quick,omitempty"`
	// Tasks are the plan's tasks, each with its steps and what is
	// computed for it: the rows of the expanded Task Panel and of the
	// board's Blueprint box.
	Tasks []planview.TaskReport `json:"tasks,omitempty"`
	// Problems counts what is wrong in the folder's files.
	Problems int `json:"problems,omitempty"`
}

// Stage is which of its one-line forms a plan is in (planview.PanelLine's):
// what a surface colours the line by, as the terminal UI's collapsed Task
// Panel does.
type Stage uint8

const (
	// StageEmpty: no task folders ("No tasks").
	StageEmpty Stage = iota
	// StagePlanning: tasks written, none started ("Planning…").
	StagePlanning
	// StageWorking: a task under way, or the next one due.
	StageWorking
	// StageBlocked: the task under way has a step reported blocked.
	StageBlocked
	// StageComplete: every task complete.
	StageComplete
)

var stageNames = [...]string{StageEmpty: "empty", StagePlanning: "planning", StageWorking: "working", StageBlocked: "blocked", StageComplete: "complete"}

func (s Stage) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return "unknown"
}

// MarshalText makes a stage its word in JSON.
func (s Stage) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads the word MarshalText writes.
func (s *Stage) UnmarshalText(b []byte) error {
	for i, n := range stageNames {
		if string(b) == n {
			*s = Stage(i)
			return nil
		}
	}
	return fmt.Errorf("unknown plan stage %q", b)
}

// ActiveTask is the task under way and its current step.
type ActiveTask struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Done     int    `json:"done"`
	Total    int    `json:"total"`
	StepID   string `json:"stepId,omitempty"`
	StepName string `json:"stepName,omitempty"`
}

// ViewOf is the view of a loaded plan of project.
func ViewOf(project string, pl *plan.Plan) View {
	done, total := pl.Progress()
	v := View{Project: project, Folder: pl.Dir, Done: done, Total: total, Percent: plan.Percent(done, total),
		Line: planview.PanelLine(pl), Quick: pl.QuickTasks(), Problems: len(pl.Problems)}
	for _, t := range pl.Tasks {
		v.Tasks = append(v.Tasks, planview.TaskReportOf(pl, t))
	}
	if t := pl.Focus(); t != nil {
		td, tt := t.Progress()
		v.Active = &ActiveTask{ID: t.ID, Name: t.Name, Done: td, Total: tt}
		if s := t.Current(); s != nil {
			v.Active.StepID, v.Active.StepName = s.ID, s.Name
		}
		if e, ok := pl.Blocked(t.ID); ok {
			v.Blocked = &planview.Blocked{Step: e.Step, Reason: e.Reason, At: e.At}
		}
	}
	// The forms of planview.PanelLine, in its order.
	switch {
	case len(pl.Folders) == 0:
		v.Stage = StageEmpty
	case total > 0 && done == total && len(pl.Invalid) == 0:
		v.Stage = StageComplete
	case v.Active == nil && done == 0:
		v.Stage = StagePlanning
	case v.Blocked != nil:
		v.Stage = StageBlocked
	default:
		v.Stage = StageWorking
	}
	return v
}

// ViewFor is the view of the plan of the project rooted at project; ok is
// false when the project has no plan folder. The folder is followed from
// then on: a change to its files reaches Subscribe.
func (p *Planner) ViewFor(project string) (View, bool, error) {
	pl, err := p.Load(project)
	if pl == nil || err != nil {
		return View{}, false, err
	}
	return ViewOf(project, pl), true, nil
}

// changed publishes a change to the plan in dir, and remembers its files
// as they are now, so the next look does not publish it again.
func (p *Planner) changed(project, dir string) {
	sig := signature(dir)
	p.mu.Lock()
	if f := p.followed[dir]; f != nil {
		f.sig = sig
	}
	p.mu.Unlock()
	p.broker.Publish(Change{Project: project, Folder: dir})
}

// Look compares the plans followed with how their files were last seen;
// a plan whose task folders came or went has its scope brought up to date
// (plan.Folder.Sync), and every change is published.
func (p *Planner) Look() {
	type seen struct {
		dir string
		f   followed
	}
	p.mu.Lock()
	var all []seen
	for dir, f := range p.followed {
		all = append(all, seen{dir, *f})
	}
	p.mu.Unlock()
	for _, s := range all {
		sig := signature(s.dir)
		if sig == s.f.sig {
			continue
		}
		p.mu.Lock()
		if f := p.followed[s.dir]; f != nil {
			f.sig = sig
		}
		p.mu.Unlock()
		if s.f.sig == "" {
			continue // first look: nothing to compare with
		}
		if sig != "" && !s.f.kiro {
			f := plan.Folder{Dir: s.dir, Root: s.f.root, Now: p.o.Now, Cache: s.f.cache}
			if _, err := f.Sync(); err != nil && tally.ErrorCode(err) != tally.CodeNotFound {
				p.failure(s.dir, err)
			}
		}
		p.broker.Publish(Change{Project: s.f.project, Folder: s.dir})
	}
}

// signature sums up what a plan folder's files look like: its entries,
// and the size and time of every task file, scope.yaml and the ledger.
// "" when the folder is not there.
func signature(dir string) string {
	des, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	h := sha256.New()
	stamp := func(path string) {
		if fi, err := os.Lstat(path); err == nil {
			h.Write([]byte(path + "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "\n"))
		}
	}
	for _, de := range des {
		h.Write([]byte(de.Name() + "\n"))
		if de.IsDir() {
			stamp(filepath.Join(dir, de.Name(), plan.TaskFile))
			stamp(filepath.Join(dir, de.Name(), plan.KiroTasks))
		}
	}
	stamp(filepath.Join(dir, plan.ScopeFile))
	stamp(filepath.Join(dir, plan.LedgerFile))
	return hex.EncodeToString(h.Sum(nil))
}

// Protocol is the block of instructions that tells an agent working in
// project how to plan and report progress (plan.Protocol), naming dir,
// the project's plan folder; "" when there is no such folder, or none
// Tally would write (plan.Folder.Usable): an agent is asked to keep a plan
// only where the project keeps one its markers can move.
func Protocol(project, dir string) string {
	if !(plan.Folder{Root: project, Dir: dir}).Usable() {
		return ""
	}
	rel, err := filepath.Rel(project, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return plan.Protocol
	}
	return plan.ProtocolIn(filepath.ToSlash(rel))
}
