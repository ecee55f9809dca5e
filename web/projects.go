package web

import (
	"maps"
	"slices"

	"github.com/tallyhq/tally/projectname"
)

// Projects are named by the server, with the code the command line names
// them with (package projectname), from the home of the user it runs as:
// the page has neither that home nor a second copy of the rule.
const (
	// projectWidth is the room a project's name has on the page: the
	// command line's project column, so a project reads the same on both.
	projectWidth = 24
	// projectMaxWidth is how far a name widens when, cut to projectWidth,
	// the parts that tell two projects apart would read alike.
	projectMaxWidth = 64
	// maxProjects bounds the projects the hub names at once; past it, the
	// one named least recently is forgotten.
	maxProjects = 4096
)

// eventProjects is the type of the event that gives a client the names of
// projects that are new or whose name changed because a project that
// ends alike appeared.
const eventProjects = "projects"

// projectsData is the data of a projects event.
type projectsData struct {
	// Names maps a project's path to the name it shows as.
	Names map[string]string `json:"names"`
}

// projectNames names every path among all of them (empty paths are no
// project).
func projectNames(home string, paths []string) map[string]string {
	n := projectname.New(home, paths...)
	w := n.DistinctWidth(projectWidth, projectMaxWidth)
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		if p != "" {
			out[p] = n.Name(p, w)
		}
	}
	return out
}

// projectSet is what the hub knows of projects: every project of the
// sessions it seeded or published, up to maxProjects, and their names
// among one another. Whatever a client holds came from a snapshot or an
// event, so naming a new project among all these keeps it apart from
// every project a page shows.
type projectSet struct {
	home string
	// last is, per project, when it was last named (a count of notes).
	last  map[string]uint64
	n     uint64
	names map[string]string
}

func newProjectSet(home string) projectSet {
	return projectSet{home: home, last: make(map[string]uint64), names: map[string]string{}}
}

// add records that a session of project p was published, and reports
// whether p is new.
func (ps *projectSet) add(p string) bool {
	if p == "" {
		return false
	}
	ps.n++
	_, known := ps.last[p]
	ps.last[p] = ps.n
	if !known && len(ps.last) > maxProjects {
		oldest, at := "", ps.n
		for q, n := range ps.last {
			if n < at {
				oldest, at = q, n
			}
		}
		delete(ps.last, oldest)
	}
	return !known
}

// rename names the projects again and returns the names that changed.
func (ps *projectSet) rename() map[string]string {
	names := projectNames(ps.home, ps.paths())
	var changed map[string]string
	for p, name := range names {
		if ps.names[p] != name {
			if changed == nil {
				changed = make(map[string]string)
			}
			changed[p] = name
		}
	}
	ps.names = names
	return changed
}

func (ps *projectSet) paths() []string { return slices.Collect(maps.Keys(ps.last)) }
