package cli

import "github.com/tallyhq/tally"

// style paints text with ANSI colours, or leaves it alone when colour is
// off (not a terminal, NO_COLOR, TERM=dumb).
type style struct{ on bool }

const (
	ansiBold   = "1"
	ansiDim    = "2"
	ansiRed    = "31"
	ansiGreen  = "32"
	ansiYellow = "33"
	ansiCyan   = "36"
	ansiGray   = "90"
)

func (s style) paint(code, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// mark is how one item is drawn: its icon and colour.
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

// The colours of seed 01's list: in_progress amber, pending gray.
var markColors = [...]string{
	markPending: ansiGray,
	markActive:  ansiYellow,
	markDone:    ansiGreen,
	markBlocked: ansiCyan,
	markStopped: ansiRed,
	markUnknown: ansiYellow,
}

// markOf decides an item's mark. Blocked is derived (an open blocker, or the
// agent said so) and outranks pending, but an item being worked on shows
// as worked on.
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

func (s style) icon(m mark) string { return s.paint(markColors[m], markIcons[m]) }

// activityLabels are the words a person reads for each Activity.
var activityLabels = [...]string{
	tally.ActivityWorking:    "working",
	tally.ActivityNeedsInput: "needs input",
	tally.ActivityIdle:       "idle",
	tally.ActivityEnded:      "ended",
}

var activityColors = [...]string{
	tally.ActivityWorking:    ansiGreen,
	tally.ActivityNeedsInput: ansiYellow,
	tally.ActivityIdle:       ansiGray,
	tally.ActivityEnded:      ansiGray,
}

func activityLabel(a tally.Activity) string {
	if int(a) < len(activityLabels) {
		return activityLabels[a]
	}
	return a.String()
}

func (s style) activity(a tally.Activity) string {
	if int(a) < len(activityColors) {
		return s.paint(activityColors[a], activityLabel(a))
	}
	return activityLabel(a)
}
