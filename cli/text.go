package cli

import (
	"fmt"
	"path/filepath"
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

// maxProject is the widest a project path is shown in a table.
const maxProject = 24

// shortProject shows a project path as a reader recognises it: the home
// directory as ~, and, when still long, only its last elements, which are
// the ones that name the project.
func shortProject(p, home string) string {
	if p == "" {
		return "-"
	}
	sep := string(filepath.Separator)
	if home != "" && home != sep {
		if p == home {
			p = "~"
		} else if rest, ok := strings.CutPrefix(p, home+sep); ok {
			p = "~" + sep + rest
		}
	}
	parts := strings.Split(p, sep)
	for keep := 2; keep >= 1 && termstyle.Width(p) > maxProject && len(parts) > keep; keep-- {
		p = termstyle.Ellipsis + sep + strings.Join(parts[len(parts)-keep:], sep)
	}
	return termstyle.Truncate(p, maxProject)
}

// fraction is a list's "X/Y", or "-" when it has no items.
func fraction(done, total int) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", done, total)
}
