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
}

// Adapter reads Crush's per-project crush.db files.
type Adapter struct {
	roots []string
}

func New(opts Options) *Adapter {
	roots := make([]string, 0, len(opts.Roots))
	for _, r := range opts.Roots {
		roots = append(roots, filepath.Clean(r))
	}
	return &Adapter{roots: roots}
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
// a project's .crush/crush.db.
func (a *Adapter) SkipDir(root, dir string) bool {
	name := filepath.Base(dir)
	switch name {
	case dataDirName:
		return false
	case "node_modules", "vendor", "target", "dist", "build", "__pycache__":
		return true
	}
	return strings.HasPrefix(name, ".")
}
