package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/tallyhq/tally/termstyle"
)

// oneLine keeps a title on one row: agents' titles and steps sometimes
// carry newlines or tabs, which would break every table.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// ago is how long before now t was, in the one unit a glance needs:
// termstyle.Age with "ago" after a length of time.
func ago(t, now time.Time) string {
	a := termstyle.Age(t, now)
	if a == "-" || a == "now" {
		return a
	}
	return a + " ago"
}

// fraction is a list's "X/Y", or "-" when it has no items.
func fraction(done, total int) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", done, total)
}

// helpWidth is the width the help's text is written to.
const helpWidth = 79

// wrap breaks a paragraph into lines of at most width columns, at spaces;
// words joined by a no-break space (U+00A0) stay on one line, where it
// becomes a space.
func wrap(paragraph string, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Split(paragraph, " ") {
		if w == "" {
			continue
		}
		w = strings.ReplaceAll(w, "\u00a0", " ")
		n := termstyle.Width(w)
		switch {
		case line == 0:
		case line+1+n > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += n
	}
	return b.String()
}
