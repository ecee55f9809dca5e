package planview

import (
	"time"

	"github.com/tallyhq/tally/plan"
)

// Report is a plan as --json prints it and other programs read it: the
// files' contents with what is computed from them.
type Report struct {
	Dir        string        `json:"dir"`
	Progress   Completion    `json:"progress"`
	Scope      plan.Scope    `json:"scope"`
	QuickTasks int           `json:"quickTasks"`
	Panel      string        `json:"panel"`
	Tasks      []TaskReport  `json:"tasks"`
	Problems   plan.Problems `json:"problems,omitempty"`
}

// Completion is how much of a plan (tasks) or of a task (steps) is
// complete: X of Y, and the percent.
type Completion struct {
	Done    int `json:"done"`
	Total   int `json:"total"`
	Percent int `json:"percent"`
}

// TaskReport is a task with what is computed for it.
type TaskReport struct {
	*plan.Task
	Progress  Completion `json:"progress"`
	Current   string     `json:"current,omitempty"`
	Started   *time.Time `json:"started,omitempty"`
	Completed *time.Time `json:"completed,omitempty"`
	Blocked   *Blocked   `json:"blocked,omitempty"`
	Promoted  bool       `json:"promoted,omitempty"`
}

// Blocked is a blocked notice in force.
type Blocked struct {
	Step   string    `json:"step"`
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// ReportOf is the report of the whole plan.
func ReportOf(p *plan.Plan) Report {
	done, total := p.Progress()
	r := Report{Dir: p.Dir, Progress: Completion{done, total, plan.Percent(done, total)}, Scope: p.ScopeNow(),
		QuickTasks: p.QuickTasks(), Panel: PanelLine(p), Tasks: []TaskReport{}, Problems: p.Problems}
	for _, t := range p.Tasks {
		r.Tasks = append(r.Tasks, TaskReportOf(p, t))
	}
	return r
}

// TaskReportOf is the report of one task of p.
func TaskReportOf(p *plan.Plan, t *plan.Task) TaskReport {
	done, total := t.Progress()
	r := TaskReport{Task: t, Progress: Completion{done, total, plan.Percent(done, total)}, Promoted: p.Promoted(t.ID)}
	if cur := t.Current(); cur != nil {
		r.Current = cur.ID
	}
	if s := p.Started(t.ID); !s.IsZero() {
		r.Started = &s
	}
	if c := p.Completed(t.ID); !c.IsZero() {
		r.Completed = &c
	}
	if e, ok := p.Blocked(t.ID); ok {
		r.Blocked = &Blocked{Step: e.Step, Reason: e.Reason, At: e.At}
	}
	return r
}
