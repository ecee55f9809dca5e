package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/tallyhq/tally"
)

// palette is every style the views use. It is made once per change of
// colour mode or background, never per frame.
type palette struct {
	plain, faint, bold, title lipgloss.Style
	selected                  lipgloss.Style
	done, active, pending     lipgloss.Style
	blocked, stopped, warn    lipgloss.Style
	activity                  [4]lipgloss.Style
	barOn, barOff             lipgloss.Style
	color                     bool
	dark                      bool
}

// The sixteen ANSI colours follow the terminal's own theme, light or dark;
// the few fixed colours below are picked for the background the terminal
// reports.
var (
	ansiRed     = lipgloss.ANSIColor(1)
	ansiGreen   = lipgloss.ANSIColor(2)
	ansiYellow  = lipgloss.ANSIColor(3)
	ansiBlue    = lipgloss.ANSIColor(4)
	ansiMagenta = lipgloss.ANSIColor(5)
	ansiCyan    = lipgloss.ANSIColor(6)
)

// newPalette builds the styles for a terminal with (color) or without
// colour (NO_COLOR, TERM=dumb), on a dark or light background. Without
// colour only bold and reverse video remain: the selection must still show.
func newPalette(color, dark bool) palette {
	p := palette{color: color, dark: dark}
	p.bold = lipgloss.NewStyle().Bold(true)
	p.title = p.bold
	if !color {
		p.selected = lipgloss.NewStyle().Reverse(true)
		for i := range p.activity {
			p.activity[i] = p.plain
		}
		return p
	}
	ld := lipgloss.LightDark(dark)
	p.faint = lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#6c6c6c"), lipgloss.Color("#8a8a8a")))
	p.selected = lipgloss.NewStyle().Background(ld(lipgloss.Color("#d7e3f7"), lipgloss.Color("#2b3a55")))
	p.title = p.bold.Foreground(ld(lipgloss.Color("#005f87"), lipgloss.Color("#87d7ff")))
	p.done = lipgloss.NewStyle().Foreground(ansiGreen)
	p.active = lipgloss.NewStyle().Foreground(ansiYellow)
	p.pending = p.faint
	p.blocked = lipgloss.NewStyle().Foreground(ansiCyan)
	p.stopped = lipgloss.NewStyle().Foreground(ansiRed)
	p.warn = lipgloss.NewStyle().Foreground(ansiYellow).Bold(true)
	p.activity[tally.ActivityWorking] = p.done
	p.activity[tally.ActivityNeedsInput] = p.active
	p.activity[tally.ActivityIdle] = p.faint
	p.activity[tally.ActivityEnded] = p.faint
	p.barOn = p.done
	p.barOff = p.faint
	return p
}

// agentColors give each agent one colour everywhere it is named.
var agentColors = map[tally.Agent]color.Color{
	tally.AgentClaude:   lipgloss.Color("208"), // orange reads on light and dark alike
	tally.AgentCodex:    ansiBlue,
	tally.AgentGemini:   ansiCyan,
	tally.AgentHermes:   ansiMagenta,
	tally.AgentACP:      ansiGreen,
	tally.AgentOpenCode: ansiYellow,
	tally.AgentCrush:    ansiMagenta,
	tally.AgentTally:    ansiGreen,
}

func (p *palette) agent(a tally.Agent) lipgloss.Style {
	if !p.color {
		return p.plain
	}
	c, ok := agentColors[a]
	if !ok {
		return p.plain
	}
	return lipgloss.NewStyle().Foreground(c)
}

func (p *palette) act(a tally.Activity) lipgloss.Style {
	if int(a) < len(p.activity) {
		return p.activity[a]
	}
	return p.plain
}

// render paints s, leaving empty text alone (an empty styled string would
// still carry escape sequences).
func render(st lipgloss.Style, s string) string {
	if s == "" {
		return s
	}
	return st.Render(s)
}
