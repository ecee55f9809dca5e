package plan

import "time"

func (p *Plan) facts() facts {
	if p.ledger == nil {
		return newLedger().facts
	}
	return p.ledger.facts
}

// Progress is how many tasks are complete, of how many usable tasks.
func (p *Plan) Progress() (done, total int) {
	for _, t := range p.Tasks {
		if t.Status == TaskComplete {
			done++
		}
	}
	return done, len(p.Tasks)
}

// Started is when task id was last activated; zero if the ledger does not
// say.
func (p *Plan) Started(id string) time.Time { return p.facts().started[id] }

// Completed is when task id's last step was done; zero if the ledger does
// not say.
func (p *Plan) Completed(id string) time.Time { return p.facts().completed[id] }

// Promoted tells whether task id began as a quick task.
func (p *Plan) Promoted(id string) bool { return p.facts().promoted[id] }

// QuickTasks counts the quick tasks the ledger records.
func (p *Plan) QuickTasks() int { return p.facts().quick }

// Blocked is the blocked notice that holds for task id: the last one
// given since the task was activated, while its step is not complete.
// A blocked step needs no "unblock": completing it ends the notice.
func (p *Plan) Blocked(id string) (Entry, bool) {
	e, ok := p.facts().blocked[id]
	if !ok {
		return Entry{}, false
	}
	t := p.Task(id)
	if t == nil || t.Status == TaskComplete {
		return Entry{}, false
	}
	if s := t.Step(e.Step); s == nil || s.Status == StepComplete {
		return Entry{}, false
	}
	return e, true
}

// Focus is the task under way, the plan's current focus: its active
// task. Tally's markers keep one task active at a time; when the files
// say several are (an agent or a person wrote them so), it is the first
// of them that is blocked, so a blocked task is never hidden behind
// another, else the first by id. Nil when no task is active.
func (p *Plan) Focus() *Task {
	var first *Task
	for _, t := range p.Tasks {
		if t.Status != TaskActive {
			continue
		}
		if _, blocked := p.Blocked(t.ID); blocked {
			return t
		}
		if first == nil {
			first = t
		}
	}
	return first
}

// ScopeNow is the scope as views show it: the original count from
// scope.yaml (the current count when there is none yet), and the count
// of task folders there are now.
func (p *Plan) ScopeNow() Scope {
	s := Scope{Original: len(p.Folders), Current: len(p.Folders)}
	if p.HasScope {
		s.Original = p.Scope.Original
	}
	return s
}
