package termstyle

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/agents"
)

// The palette. The basic colours follow the terminal's own theme, which is
// what makes them readable on light and dark backgrounds alike.
var (
	Gray  ansi.Color = ansi.BrightBlack
	Green ansi.Color = ansi.Green
	Amber ansi.Color = ansi.Yellow
	Red   ansi.Color = ansi.Red
	Cyan  ansi.Color = ansi.Cyan
)

// AgentColor is the colour an agent's name is drawn in, its descriptor's
// 256-colour index (one per agent, so that two agents in one pipeline or
// one table are told apart at a glance); an agent this build does not know
// is cyan.
func AgentColor(a tally.Agent) ansi.Color {
	if d := agents.Find(a); d != nil {
		return ansi.IndexedColor(d.Color)
	}
	return Cyan
}

// activityLabels are the words a person reads for each Activity (the JSON
// names have underscores).
var activityLabels = [...]string{
	tally.ActivityWorking:    "working",
	tally.ActivityNeedsInput: "needs input",
	tally.ActivityIdle:       "idle",
	tally.ActivityEnded:      "ended",
}

var activityColors = [...]ansi.Color{
	tally.ActivityWorking:    Green,
	tally.ActivityNeedsInput: Amber,
	tally.ActivityIdle:       Gray,
	tally.ActivityEnded:      Gray,
}

// ActivityLabel is the word shown for a.
func ActivityLabel(a tally.Activity) string {
	if int(a) < len(activityLabels) {
		return activityLabels[a]
	}
	return a.String()
}

// ActivityColor is the colour a's label is drawn in: green while working,
// amber when the session waits for its user, gray when nothing happens.
func ActivityColor(a tally.Activity) ansi.Color {
	if int(a) < len(activityColors) {
		return activityColors[a]
	}
	return Gray
}

// Styles for plain output. A Style is a list of SGR attributes; an empty
// one paints nothing.
var (
	Bold  = ansi.Style{}.Bold()
	Faint = ansi.Style{}.Faint()
)

// Fg is the style that draws text in colour c.
func Fg(c ansi.Color) ansi.Style { return ansi.Style{}.ForegroundColor(c) }

// reset ends every painted run: SGR 0 turns every attribute off.
const reset = "\x1b[0m"

// Painter paints text with SGR sequences when On, and leaves it alone
// otherwise.
type Painter struct{ On bool }

// Paint draws text in style s.
func (p Painter) Paint(s ansi.Style, text string) string {
	if !p.On || len(s) == 0 || text == "" {
		return text
	}
	return s.String() + text + reset
}

// Icon is m's one-column icon in m's colour.
func (p Painter) Icon(m Mark) string { return p.Paint(Fg(m.Color()), m.Icon()) }

// Activity is a's label in a's colour.
func (p Painter) Activity(a tally.Activity) string {
	return p.Paint(Fg(ActivityColor(a)), ActivityLabel(a))
}
