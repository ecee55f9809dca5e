package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
)

// spinEvery is the spinner's pace.
const spinEvery = 80 * time.Millisecond

// spinTick turns the spinner one frame.
type spinTick struct{}

// clockTick wakes the model at the time a shown age or an activity is due
// to change.
type clockTick struct{ at time.Time }

// spinning tells whether a spinner is on screen: the expanded panel of a
// working session with a step in progress. Nothing else ticks at 80 ms.
func (m *Model) spinning() bool {
	if !m.expanded || m.help {
		return false
	}
	s := m.current()
	if s == nil || s.Activity != tally.ActivityWorking {
		return false
	}
	if s.Progress.InProgress > 0 {
		return true
	}
	if m.screen != screenDetail {
		return false
	}
	for _, sub := range s.SubAgents {
		if sub.ID != tally.RuntimeList && sub.Progress.InProgress > 0 {
			return true
		}
	}
	return false
}

// schedule asks for the ticks the screen needs: the spinner's while it
// spins, and one clock tick at the next time the clock alone changes what
// is shown. A tick already pending is not asked for twice.
func (m *Model) schedule() tea.Cmd {
	var cmds []tea.Cmd
	if m.spinning() && !m.spinPending {
		m.spinPending = true
		cmds = append(cmds, tea.Tick(spinEvery, func(time.Time) tea.Msg { return spinTick{} }))
	}
	now := m.o.Now()
	if due := m.nextChange(now); !due.IsZero() && (m.clockAt.IsZero() || due.Before(m.clockAt)) {
		m.clockAt = due
		cmds = append(cmds, tea.Tick(max(due.Sub(now), 0), func(time.Time) tea.Msg { return clockTick{at: due} }))
	}
	return tea.Batch(cmds...)
}

// nextChange is the next time after now that the clock alone changes the
// screen: an age shown in the list or the detail (a flag's too), a shown
// session stalling, or any activity (which moves a session between active
// and ended, and the count of active ones).
func (m *Model) nextChange(now time.Time) time.Time {
	due := m.roster.rows()
	next := m.roster.transition
	if m.screen == screenDetail {
		if e, ok := m.roster.byID[m.selected]; ok {
			next = earliest(next, ageChange(e.rec.LastActivity, now))
			next = earliest(next, stallChange(&e.rec, now))
			flags := e.rec.FlagsAt(now)
			for _, f := range flags.List() {
				next = earliest(next, ageChange(flags.Since(f), now))
			}
		}
	} else {
		start := min(m.top, len(due))
		end := min(start+m.listRows(), len(due))
		for _, e := range due[start:end] {
			next = earliest(next, ageChange(e.rec.LastActivity, now))
			next = earliest(next, stallChange(&e.rec, now))
		}
	}
	return next
}

// stallChange is when r becomes stalled, or its tentative turn end comes
// to count, if that is still to come: the clock alone does both
// (tally.Record.NextChange).
func stallChange(r *tally.Record, now time.Time) time.Time {
	return r.NextChange(now)
}
