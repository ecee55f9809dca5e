package termstyle

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
)

// Mark is how an item's state is drawn: one icon and one colour each.
type Mark uint8

const (
	MarkPending Mark = iota
	MarkActive
	MarkDone
	MarkBlocked
	// MarkStopped: cancelled or failed; a note says which.
	MarkStopped
	// MarkUnknown: a status word Tally does not know; the word is shown.
	MarkUnknown
	numMarks
)

// icons are one column wide each, so that a list's texts line up in any
// terminal font. Every terminal surface draws a state with the same one:
// `show`, `watch`, the terminal UI and `follow`, whatever the agent.
var icons = [numMarks]string{
	MarkPending: "◻",
	MarkActive:  "◼",
	MarkDone:    "✓",
	MarkBlocked: "▸",
	MarkStopped: "✗",
	MarkUnknown: "?",
}

// markColors: in progress amber, pending gray, done green, blocked cyan,
// stopped red, and amber again for a word Tally does not know, which wants
// a look.
var markColors = [numMarks]ansi.Color{
	MarkPending: Gray,
	MarkActive:  Amber,
	MarkDone:    Green,
	MarkBlocked: Cyan,
	MarkStopped: Red,
	MarkUnknown: Amber,
}

// Icon is m's one-column icon: ✓ ◼ ◻ ▸ ✗ ?.
func (m Mark) Icon() string { return icons[m.valid()] }

// Color is the colour m's icon is drawn in.
func (m Mark) Color() ansi.Color { return markColors[m.valid()] }

func (m Mark) valid() Mark {
	if m >= numMarks {
		return MarkUnknown
	}
	return m
}

// MarkOf decides an item's mark. Blocked is derived (an open blocker, or the
// agent said so) and outranks pending, but an item being worked on shows as
// worked on.
func MarkOf(it *tally.ItemView) Mark {
	switch it.Status {
	case tally.StatusCompleted:
		return MarkDone
	case tally.StatusCancelled, tally.StatusFailed:
		return MarkStopped
	case tally.StatusInProgress:
		return MarkActive
	case tally.StatusPending, tally.StatusBlocked, tally.StatusUnknown:
	}
	if it.Blocked {
		return MarkBlocked
	}
	if it.Status == tally.StatusUnknown {
		return MarkUnknown
	}
	return MarkPending
}
