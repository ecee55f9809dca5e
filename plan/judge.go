package plan

import (
	"fmt"
	"slices"
	"time"
)

// Judgement is what markers do to a plan, judged against it in order
// (Judge): nothing is written yet.
type Judgement struct {
	// Outcomes are the markers' verdicts, in the order given.
	Outcomes []Outcome
	// Changed are the tasks whose statuses the markers changed, as they
	// are to be written.
	Changed []*Task
	// Entries are the ledger entries the markers make, in order.
	Entries []Entry
	// Promoted are the tasks a marker promoted from the quick tasks.
	Promoted map[string]bool
	// Earliest is when the first marker was written (now for none);
	// Begun says a marker named a usable task: execution has begun.
	Earliest time.Time
	Begun    bool
}

// Judge judges markers against p (as Load read it, its ledger with it),
// each against the plan as the markers
// before it left it, as of now (the time of markers given without one):
// the rules of Apply, with nothing read or written. A marker whose key
// the ledger (or an earlier marker) holds is a Duplicate; one older than
// the newest keyed marker taken by more than StaleAfter is Skipped; every
// other one is Applied, Unchanged or Rejected by the rules (Decide).
func Judge(p *Plan, markers []Marker, now time.Time) Judgement {
	s := StateOf(p)
	l := p.ledger
	if l == nil { // a plan not read from a folder: an empty ledger
		l = newLedger()
	}
	// The keys this batch judged; the ledger's are in l.keys.
	seen := map[string]bool{}
	judged := func(key string) bool { return seen[key] || l.keys.has(key) }
	newest := l.newest
	j := Judgement{Outcomes: make([]Outcome, len(markers)), Promoted: map[string]bool{}, Earliest: now}
	var changed []string
	for i, m := range markers {
		o := &j.Outcomes[i]
		o.Marker, o.Text = m, Text(m.Marker)
		if m.Key != "" && judged(m.Key) {
			o.Verdict, o.Reason = Duplicate, "already judged"
			continue
		}
		at := m.At
		if at.IsZero() {
			at = now
		}
		j.Earliest = minTime(j.Earliest, at)
		var d Decision
		if at.Before(newest.Add(-StaleAfter)) {
			d = Decision{Verdict: Skipped, Reason: fmt.Sprintf("older than the newest marker the plan has taken (%s) by more than %v",
				newest.UTC().Format(time.RFC3339), StaleAfter)}
		} else {
			d = Decide(s, m.Marker)
		}
		o.Verdict, o.Reason = d.Verdict, d.Reason
		// A quick task is work beside the plan: it does not begin it.
		j.Begun = j.Begun || (d.Verdict == Applied || d.Verdict == Unchanged) && !IsQuick(m.Marker)
		switch d.Verdict {
		case Applied:
			s.Apply(d)
			for _, c := range d.Changes {
				if !slices.Contains(changed, c.Task) {
					changed = append(changed, c.Task)
				}
			}
			for _, e := range d.Entries {
				if e.Type == EntryTaskPromoted {
					j.Promoted[e.Task] = true
				}
			}
		case Rejected:
			typ := EntryRejected
			if m.Unrecognised() {
				typ = EntryUnrecognised
			}
			d.Entries = []Entry{{Type: typ, Task: m.Task, Step: m.Step, Reason: d.Reason, Marker: o.Text}}
		case Skipped:
			d.Entries = []Entry{{Type: EntrySkipped, Task: m.Task, Step: m.Step, Reason: d.Reason, Marker: o.Text}}
		case Unchanged:
			d.Entries = []Entry{{Type: EntryUnchanged, Task: m.Task, Step: m.Step, Reason: d.Reason, Marker: o.Text}}
		}
		for _, e := range d.Entries {
			e.At, e.Key, e.By = at, m.Key, m.By
			o.Entries = append(o.Entries, e)
		}
		j.Entries = append(j.Entries, o.Entries...)
		if m.Key != "" {
			seen[m.Key] = true
			if at.After(newest) {
				newest = at
			}
		}
	}
	for _, id := range changed {
		t := p.Task(id).clone() // the loaded plan may be shared (Cache)
		ts := s.task(id)
		t.Status = ts.Status
		for i := range t.Steps {
			t.Steps[i].Status = ts.Steps[i].Status
		}
		j.Changed = append(j.Changed, t)
	}
	return j
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
