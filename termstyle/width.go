package termstyle

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Ellipsis ends text cut to fit.
const Ellipsis = "…"

// Width is the number of terminal cells s takes: wide CJK and emoji count
// two, escape sequences none. It is what alignment and cutting measure.
func Width(s string) int { return ansi.StringWidth(s) }

// Truncate cuts s to at most w cells, ending in an ellipsis when it cut.
// Escape sequences are kept whole, those after the cut too, so a colour
// cut into is still closed. w <= 0 means no limit.
func Truncate(s string, w int) string {
	if w <= 0 {
		return s
	}
	return ansi.Truncate(s, w, Ellipsis)
}

// Wrap breaks s into lines of at most w cells: at spaces where it can,
// inside a word only when the word is wider than w. It is for text shown
// whole, such as a title in a detail view. w <= 0 means no limit.
func Wrap(s string, w int) string {
	if w <= 0 {
		return s
	}
	return ansi.Wrap(s, w, "")
}

// Pad left-aligns s in a column of w cells.
func Pad(s string, w int) string {
	if n := w - Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// Strip removes escape sequences from s.
func Strip(s string) string { return ansi.Strip(s) }
