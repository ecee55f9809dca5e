package projectname

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally/termstyle"
)

const sep = string(filepath.Separator)

// minPart is the fewest cells a folder's name is cut to before a path is
// cut at its end instead.
const minPart = 4

// None is the name of a session with no project.
const None = "-"

// Tilde shows the user's own home directory, and only that one, as ~.
func Tilde(p, home string) string {
	if home == "" || home == sep {
		return p
	}
	if p == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, home+sep); ok {
		return "~" + sep + rest
	}
	return p
}

// Names names a set of projects so that a reader tells them apart.
type Names struct {
	home string
	// need is, per path (home as ~), how many of its trailing parts no
	// other path of the set shares.
	need map[string]int
}

// New names the projects paths (empty ones are no project) of the user
// whose home directory is home.
func New(home string, paths ...string) Names {
	n := Names{home: home, need: make(map[string]int, len(paths))}
	parts := make(map[string][]string, len(paths))
	for _, p := range paths {
		if p != "" {
			q := Tilde(p, home)
			parts[q] = strings.Split(q, sep)
		}
	}
	pending := make([]string, 0, len(parts))
	for q := range parts {
		pending = append(pending, q)
	}
	// A path whose last k parts are unique has unique last k+1 parts too,
	// so each round counts only the paths still alike.
	for k := 1; len(pending) > 0; k++ {
		count := make(map[string]int, len(pending))
		for _, q := range pending {
			count[lastParts(parts[q], k)]++
		}
		next := pending[:0]
		for _, q := range pending {
			if count[lastParts(parts[q], k)] == 1 || k >= len(parts[q]) {
				n.need[q] = min(k, len(parts[q]))
			} else {
				next = append(next, q)
			}
		}
		pending = next
	}
	return n
}

func lastParts(parts []string, k int) string {
	return strings.Join(parts[max(len(parts)-k, 0):], sep)
}

// Name shows p in at most width cells: whole (home as ~) when it fits;
// else "…/" and its last parts — as many as tell it apart from the other
// projects of the set, and the folder above the project's own when it
// fits. When even that is too wide, the part that tells it apart is cut at
// its end; DistinctWidth is the room that keeps the cut names different.
func (n Names) Name(p string, width int) string {
	if p == "" {
		return None
	}
	q := Tilde(p, n.home)
	if termstyle.Width(q) <= width {
		return q
	}
	parts := strings.Split(q, sep)
	k := max(n.need[q], 1)
	if k >= len(parts) {
		return termstyle.Truncate(q, width)
	}
	lead := termstyle.Ellipsis + sep
	elided := func(k int) string { return lead + lastParts(parts, k) }
	for k < 2 && k+1 < len(parts) && termstyle.Width(elided(k+1)) <= width {
		k++
	}
	if termstyle.Width(elided(k)) <= width {
		return elided(k)
	}
	first, rest := parts[len(parts)-k], ""
	if k > 1 {
		rest = sep + lastParts(parts, k-1)
	}
	if room := width - termstyle.Width(lead+rest); room >= minPart {
		return lead + termstyle.Truncate(first, room) + rest
	}
	return termstyle.Truncate(elided(k), width)
}

// DistinctWidth is the fewest cells, from least up to most, in which the
// names of the set's projects are all different; most if none is.
func (n Names) DistinctWidth(least, most int) int {
	seen := make(map[string]string, len(n.need))
	for w := least; w < most; w++ {
		clear(seen)
		distinct := true
		for p := range n.need {
			name := n.Name(p, w)
			if other, ok := seen[name]; ok && other != p {
				distinct = false
				break
			}
			seen[name] = p
		}
		if distinct {
			return w
		}
	}
	return most
}
