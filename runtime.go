package tally

// Runtime progress is what a session does, told by its tool calls rather
// than by the model: the call running now, how many ran, how many failed.
// Adapters put each call in the list RuntimeList (package
// adapter/internal/toolrun makes the events: one task per call, its label
// an activeForm such as "Running tests"), apart from the model's own
// checklist, so a session that keeps no list still shows what it does.
//
// A session makes thousands of calls, and only the newest tell what it is
// doing: the fold keeps the open calls and the newest MaxRuntime finished
// ones, and counts those it lets go in List.Earlier. Counts are derived
// from both (RuntimeOf), never stored apart from them.

// MaxRuntime bounds the finished calls a runtime list keeps.
const MaxRuntime = 20

// RuntimeCount counts the calls a runtime list no longer holds.
type RuntimeCount struct {
	Calls  int `json:"calls,omitempty"`
	Failed int `json:"failed,omitempty"`
}

func (c *RuntimeCount) add(o RuntimeCount) {
	c.Calls += o.Calls
	c.Failed += o.Failed
}

// trimRuntime lets the oldest finished calls go beyond MaxRuntime,
// counting them; it reports whether it let any go.
func (l *List) trimRuntime() bool {
	finished := 0
	for i := range l.Tasks {
		if ended(l.Tasks[i].Status) {
			finished++
		}
	}
	drop := finished - MaxRuntime
	if drop <= 0 {
		return false
	}
	kept := l.Tasks[:0]
	for _, t := range l.Tasks {
		if drop > 0 && ended(t.Status) {
			drop--
			l.Earlier.Calls++
			if t.Status == StatusFailed {
				l.Earlier.Failed++
			}
			continue
		}
		kept = append(kept, t)
	}
	clear(l.Tasks[len(kept):])
	l.Tasks = kept
	return true
}

// ended tells a call that is over, failed or not.
func ended(s Status) bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusCancelled
}

// RuntimeProgress is a session's runtime progress as surfaces show it.
type RuntimeProgress struct {
	// Calls counts the tool calls seen, Failed those that failed, Running
	// those started and not finished.
	Calls   int `json:"calls"`
	Failed  int `json:"failed"`
	Running int `json:"running"`
	// Current is the label of the newest call still running
	// ("Running tests"), "" when none is.
	Current string `json:"current,omitempty"`
	// Last is the label of the newest call, running or not.
	Last string `json:"last,omitempty"`
}

// RuntimeOf derives the runtime progress of a runtime list's items and
// the calls it let go; nil when there were no calls.
func RuntimeOf(items []Item, earlier RuntimeCount) *RuntimeProgress {
	if len(items) == 0 && earlier.Calls == 0 {
		return nil
	}
	p := &RuntimeProgress{Calls: earlier.Calls + len(items), Failed: earlier.Failed}
	for i := range items {
		it := &items[i]
		switch it.Status {
		case StatusFailed:
			p.Failed++
		case StatusInProgress, StatusPending, StatusUnknown:
			p.Running++
			p.Current = it.Label()
		case StatusCompleted, StatusCancelled, StatusBlocked:
		}
	}
	if n := len(items); n > 0 {
		p.Last = items[n-1].Label()
	}
	return p
}

// Step is what the session is doing, as one line: the model's current
// step (its label), else the tool call its runtime is running, so a
// session that keeps no list still says what it does. runtime tells the
// second.
func (s *Session) Step() (label string, runtime bool) {
	if cur := s.Progress.Current; cur != nil {
		return cur.Label(), false
	}
	if s.Runtime != nil && s.Runtime.Current != "" {
		return s.Runtime.Current, true
	}
	return "", false
}
