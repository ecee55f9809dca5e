package kilo

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/adapter/internal/opencodedb"
)

var (
	_ tally.DatabaseReader = (*Adapter)(nil)
	_ tally.DirSkipper     = (*Adapter)(nil)
)

// Options configure an Adapter, with paths the caller resolved from the
// environment the way Kilo does.
type Options struct {
	// DataDir is Kilo's data directory; "" reads nothing.
	DataDir string
	// DB is the value of $KILO_DB: the database's path, relative to
	// DataDir unless absolute; ":memory:" means there is no database
	// file; "" means <DataDir>/kilo.db, or a release channel's
	// kilo-<channel>.db there.
	DB string
}

// Adapter reads Kilo Code's kilo.db.
type Adapter struct {
	dataDir string
	db      string // "" when Kilo keeps no database file
}

const dbName = "kilo.db"

// kiloDB names Kilo's database in errors and diagnostics.
var kiloDB = agentdb.DB{Name: "Kilo Code", Pkg: "kilo"}

// New builds an Adapter, placing the database as Kilo does.
func New(o Options) *Adapter {
	if o.DataDir == "" {
		return &Adapter{}
	}
	dir := filepath.Clean(o.DataDir)
	db := o.DB
	switch {
	case db == ":memory:":
		db = ""
	case db == "":
		db = filepath.Join(dir, dbName)
	case !filepath.IsAbs(db):
		db = filepath.Join(dir, db)
	}
	if db != "" {
		db = filepath.Clean(db)
	}
	return &Adapter{dataDir: dir, db: db}
}

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots are the data directory and, when KILO_DB puts the database
// elsewhere, its directory.
func (a *Adapter) Roots() []string {
	if a.dataDir == "" {
		return nil
	}
	roots := []string{a.dataDir}
	if a.db != "" && filepath.Dir(a.db) != a.dataDir {
		roots = append(roots, filepath.Dir(a.db))
	}
	return roots
}

// Match accepts the database and its -wal, one FileInfo for both, and the
// database a release channel keeps in the data directory instead
// (kilo-<channel>.db: Kilo's database path rule for channels other than
// latest, beta and prod).
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	db := strings.TrimSuffix(path, "-wal")
	if db == a.db || filepath.Dir(db) == a.dataDir && isChannelDB(filepath.Base(db)) {
		return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
	}
	return tally.FileInfo{}, false
}

func isChannelDB(name string) bool {
	ch, ok := strings.CutPrefix(name, "kilo-")
	if !ok {
		return false
	}
	ch, ok = strings.CutSuffix(ch, ".db")
	return ok && ch != "" && !strings.ContainsAny(ch, "/\\")
}

// SkipDir leaves out every folder under the roots: the data directory
// also holds logs, snapshots and per-session diffs, and the database is at
// its top.
func (a *Adapter) SkipDir(root, dir string) bool { return dir != root }

// ReadDatabase reads kilo.db, whose tables are OpenCode's.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return opencodedb.Read(ctx, path, kiloDB)
}
