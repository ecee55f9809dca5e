package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/tallyhq/tally"
)

// mark is how one item is drawn: its icon and style.
type mark uint8

const (
	markPending mark = iota
	markActive
	markDone
	markBlocked
	markStopped // cancelled or failed
	markUnknown
)

var markIcons = [...]string{
	markPending: "◻",
	markActive:  "◼",
	markDone:    "✓",
	markBlocked: "▸",
	markStopped: "✗",
	markUnknown: "?",
}

// markOf decides an item's mark. Blocked is derived (an open blocker, or
// the agent said so) and outranks pending, but an item being worked on
// shows as worked on.
func markOf(it *tally.ItemView) mark {
	switch it.Status {
	case tally.StatusCompleted:
		return markDone
	case tally.StatusCancelled, tally.StatusFailed:
		return markStopped
	case tally.StatusInProgress:
		return markActive
	case tally.StatusPending, tally.StatusBlocked, tally.StatusUnknown:
	}
	if it.Blocked {
		return markBlocked
	}
	if it.Status == tally.StatusUnknown {
		return markUnknown
	}
	return markPending
}

func (p *palette) mark(m mark) string { return render(p.markStyle(m), markIcons[m]) }

func (p *palette) markStyle(m mark) lipgloss.Style {
	st := p.plain
	switch m {
	case markPending:
		st = p.pending
	case markActive, markUnknown:
		st = p.active
	case markDone:
		st = p.done
	case markBlocked:
		st = p.blocked
	case markStopped:
		st = p.stopped
	}
	return st
}

// spinnerFrames turn once every 80 ms beside the step in progress.
var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
