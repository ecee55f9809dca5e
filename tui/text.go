package tui

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/termstyle"
)

// ellipsis marks text cut to fit.
const ellipsis = termstyle.Ellipsis

// width is the number of columns s takes on a terminal, escape sequences
// aside (wide CJK and emoji count two), as every surface measures it.
func width(s string) int { return termstyle.Width(s) }

// cut shortens s (which may carry styles) to at most w columns, ending in
// an ellipsis when cut; no room leaves nothing.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return termstyle.Truncate(s, w)
}

// fit cuts s to w columns and pads it with spaces to exactly w.
func fit(s string, w int) string {
	s = cut(s, w)
	if n := w - width(s); n > 0 {
		s += strings.Repeat(" ", n)
	}
	return s
}

// spread puts left and right on one line of w columns, right-aligned
// right; left is cut first when both do not fit.
func spread(left, right string, w int) string {
	rw := width(right)
	if rw >= w {
		return cut(right, w)
	}
	return fit(left, w-rw-1) + " " + right
}

// oneLine is the only way agents' text reaches the screen. It keeps it on
// one row (titles and steps sometimes carry newlines or tabs) and drops
// control characters: an escape sequence in a log must not reach the
// terminal, where it could move the cursor, retitle the window or write
// the clipboard.
func oneLine(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError
	}), " ")
}

// age is how long before now t was, in the one unit a glance needs
// (termstyle.Age).
func age(t, now time.Time) string { return termstyle.Age(t, now) }

// ageChange is when age(t, ·) next shows a different text after now.
func ageChange(t, now time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	d := now.Sub(t)
	unit := 24 * time.Hour
	switch {
	case d < time.Minute:
		unit = time.Second
	case d < time.Hour:
		unit = time.Minute
	case d < 24*time.Hour:
		unit = time.Hour
	}
	if d < 0 {
		return t
	}
	return t.Add((d/unit + 1) * unit)
}

// projectText names a project as every surface does (projectname: as
// many trailing parts as tell it from the other projects), in w columns,
// on one line whatever its path holds.
func projectText(n projectname.Names, p string, w int) string {
	return oneLine(n.Name(p, w))
}

// bar is a small progress bar of n cells: done of total filled.
func (p *palette) bar(done, total, n int) string {
	if total <= 0 || n <= 0 {
		return strings.Repeat(" ", max(n, 0))
	}
	on := done * n / total
	if done > 0 && on == 0 {
		on = 1
	}
	return render(p.barOn, strings.Repeat("▰", on)) + render(p.barOff, strings.Repeat("▱", n-on))
}
