package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// markOf is how an item is drawn, as on every surface of Tally.
func markOf(it *tally.ItemView) termstyle.Mark { return termstyle.MarkOf(it) }

// mark is m's icon in m's colour.
func (p *palette) mark(m termstyle.Mark) string { return render(p.markStyle(m), m.Icon()) }

func (p *palette) markStyle(m termstyle.Mark) lipgloss.Style {
	if !p.color {
		return p.plain
	}
	return lipgloss.NewStyle().Foreground(m.Color())
}

// spinnerFrames turn once every 80 ms beside the step in progress.
var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
