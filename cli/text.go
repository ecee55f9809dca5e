package cli

import (
	"fmt"
	"strings"
	"time"
)

// oneLine keeps a title on one row: agents' titles and steps sometimes
// carry newlines or tabs, which would break every table.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// ago is how long before now t was, in the one unit a glance needs.
func ago(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < time.Second:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

// fraction is a list's "X/Y", or "-" when it has no items.
func fraction(done, total int) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", done, total)
}
