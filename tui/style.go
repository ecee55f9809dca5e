package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// palette is every style the views use: the colours every surface shares
// (termstyle), and for the few Tally has no shared word for (faint text,
// the selection, titles), ones picked for the terminal's background. It is made once per change of
// colour mode or background, never per frame.
type palette struct {
	plain, faint, bold, title lipgloss.Style
	selected                  lipgloss.Style
	done, active, pending     lipgloss.Style
	blocked, stopped, warn    lipgloss.Style
	activity                  [4]lipgloss.Style
	flags                     map[tally.Flag]lipgloss.Style
	barOn, barOff             lipgloss.Style
	color                     bool
	dark                      bool
}

// newPalette builds the styles for a terminal with (color) or without
// colour (NO_COLOR, TERM=dumb), on a dark or light background. Without
// colour only bold and reverse video remain: the selection must still show.
func newPalette(colored, dark bool) palette {
	p := palette{color: colored, dark: dark}
	p.bold = lipgloss.NewStyle().Bold(true)
	p.title = p.bold
	if !colored {
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
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	p.done = fg(termstyle.Green)
	p.active = fg(termstyle.Amber)
	p.pending = p.faint
	p.blocked = fg(termstyle.Cyan)
	p.stopped = fg(termstyle.Red)
	p.warn = fg(termstyle.Amber).Bold(true)
	for a := range p.activity {
		p.activity[a] = fg(termstyle.ActivityColor(tally.Activity(a)))
	}
	p.flags = map[tally.Flag]lipgloss.Style{}
	for _, f := range tally.AllFlags() {
		p.flags[f] = fg(termstyle.FlagColor(f)).Bold(true)
	}
	p.barOn = p.done
	p.barOff = p.faint
	return p
}

func (p *palette) agent(a tally.Agent) lipgloss.Style {
	if !p.color {
		return p.plain
	}
	return lipgloss.NewStyle().Foreground(termstyle.AgentColor(a))
}

// flag is how f is drawn: bold, in its colour.
func (p *palette) flag(f tally.Flag) lipgloss.Style {
	if st, ok := p.flags[f]; ok {
		return st
	}
	return p.bold
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
