package crush

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
)

var _ tally.DatabaseReader = (*Adapter)(nil)

// Options configure an Adapter.
type Options struct {
	// Roots are the directories searched for Crush databases, absolute: a
	// project's .crush directory, a Crush data directory, or any directory
	// above projects (every <project>/.crush/crush.db under it is read).
	// The caller resolves the default: ./.crush under the working
	// directory, and $CRUSH_DATA_DIR if set. None reads nothing.
	Roots []string
	// GlobalDir is Crush's global data directory ($CRUSH_GLOBAL_DATA, else
	// $XDG_DATA_HOME/crush, else ~/.local/share/crush), whose projects.json
	// lists every project Crush ran in: each project's data directory
	// becomes a root of its own, read for its crush.db only (never walked),
	// unless a root already holds it. "" reads no index.
	GlobalDir string
}

// Adapter reads Crush's per-project crush.db files.
type Adapter struct {
	roots []string
	// indexed are the roots projects.json gave, each the data directory of
	// the project it maps to (projects.json's path, "" if it has none).
	indexed map[string]string
}

func New(opts Options) *Adapter {
	roots := make([]string, 0, len(opts.Roots))
	for _, r := range opts.Roots {
		roots = append(roots, filepath.Clean(r))
	}
	a := &Adapter{roots: roots}
	if opts.GlobalDir == "" {
		return a
	}
	walked := roots
	for _, p := range readProjects(opts.GlobalDir) {
		if within(walked, p.dataDir) {
			continue
		}
		if a.indexed == nil {
			a.indexed = map[string]string{}
		}
		a.indexed[p.dataDir] = p.path
		a.roots = append(a.roots, p.dataDir)
	}
	return a
}

// within tells whether dir is one of roots or below one.
func within(roots []string, dir string) bool {
	for _, r := range roots {
		if rel, err := filepath.Rel(r, dir); err == nil && filepath.IsLocal(rel) {
			return true
		}
	}
	return false
}

const (
	dataDirName = ".crush"
	dbName      = "crush.db"
)

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string { return a.roots }

// Match accepts crush.db and its -wal (one FileInfo for both: the database
// holds every session of its project) when it sits in a .crush directory
// or directly in a root (a data directory named otherwise).
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return tally.FileInfo{}, false
	}
	db := strings.TrimSuffix(path, "-wal")
	if filepath.Base(db) != dbName {
		return tally.FileInfo{}, false
	}
	dir := filepath.Dir(db)
	if filepath.Base(dir) != dataDirName && dir != filepath.Clean(root) {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
}

// projectOf is the directory a database belongs to: as projects.json
// names it for a data directory it listed, else as project says.
func (a *Adapter) projectOf(db string) string {
	if p, ok := a.indexed[filepath.Dir(db)]; ok && p != "" {
		return p
	}
	return project(db)
}

// project is the directory a database belongs to: the parent of its
// .crush directory, or "" for a data directory named otherwise.
func project(db string) string {
	dir := filepath.Dir(db)
	if filepath.Base(dir) != dataDirName {
		return ""
	}
	return filepath.Dir(dir)
}

var _ tally.DirSkipper = (*Adapter)(nil)

// SkipDir keeps a root that holds many projects cheap to walk: hidden
// directories other than .crush, and dependency and build trees, never hold
// a project's .crush/crush.db. A root projects.json gave is not walked.
func (a *Adapter) SkipDir(root, dir string) bool {
	if _, ok := a.indexed[root]; ok {
		return true // a data directory projects.json named holds crush.db at its top
	}
	name := filepath.Base(dir)
	switch name {
	case dataDirName:
		return false
	case "node_modules", "vendor", "target", "dist", "build", "__pycache__":
		return true
	}
	return strings.HasPrefix(name, ".")
}
