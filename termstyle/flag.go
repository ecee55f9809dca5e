package termstyle

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
)

// flagLabels are the words a person reads for each flag, and flagShort
// the one word a table's narrow column holds.
var (
	flagLabels = map[tally.Flag]string{
		tally.FlagNeedsInput: "needs input",
		tally.FlagStalled:    "stalled",
		tally.FlagLooping:    "looping",
		tally.FlagNoProgress: "no progress",
		tally.FlagBlocked:    "blocked",
		tally.FlagFinished:   "finished",
	}
	flagShort = map[tally.Flag]string{
		tally.FlagNeedsInput: "input",
		tally.FlagStalled:    "stalled",
		tally.FlagLooping:    "looping",
		tally.FlagNoProgress: "stuck",
		tally.FlagBlocked:    "blocked",
		tally.FlagFinished:   "finished",
	}
	// Red calls a person now; amber asks for a look; green is good news.
	flagColors = map[tally.Flag]ansi.Color{
		tally.FlagNeedsInput: Red,
		tally.FlagStalled:    Red,
		tally.FlagLooping:    Red,
		tally.FlagNoProgress: Amber,
		tally.FlagBlocked:    Amber,
		tally.FlagFinished:   Green,
	}
)

// FlagLabel is the words shown for f.
func FlagLabel(f tally.Flag) string {
	if l, ok := flagLabels[f]; ok {
		return l
	}
	return f.String()
}

// FlagColor is the colour f is drawn in.
func FlagColor(f tally.Flag) ansi.Color {
	if c, ok := flagColors[f]; ok {
		return c
	}
	return Gray
}

// FlagsText lists a set's flags in words, most urgent first: "needs input,
// looping"; "" when it is empty.
func FlagsText(fs tally.Flags) string {
	var words []string
	for _, f := range fs.List() {
		words = append(words, FlagLabel(f))
	}
	return strings.Join(words, ", ")
}

// FlagCell is a set in one short word, the most urgent flag's, with how
// many more there are: "looping+1"; "" when it is empty.
func FlagCell(fs tally.Flags) string {
	list := fs.List()
	if len(list) == 0 {
		return ""
	}
	cell := flagShort[list[0]]
	if cell == "" {
		cell = list[0].String()
	}
	if len(list) > 1 {
		cell += "+" + strconv.Itoa(len(list)-1)
	}
	return cell
}

// Flags is FlagsText with each flag in its colour.
func (p Painter) Flags(fs tally.Flags) string {
	var words []string
	for _, f := range fs.List() {
		words = append(words, p.Paint(Fg(FlagColor(f)), FlagLabel(f)))
	}
	return strings.Join(words, ", ")
}

// FlagCellColor is the colour of a FlagCell: its first flag's.
func FlagCellColor(fs tally.Flags) ansi.Color {
	if list := fs.List(); len(list) > 0 {
		return FlagColor(list[0])
	}
	return Gray
}
