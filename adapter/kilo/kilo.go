package kilo

import (
	"context"

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
	place opencodedb.Place
}

const dbName = "kilo.db"

// kiloDB names Kilo's database in errors and diagnostics.
var kiloDB = agentdb.DB{Name: "Kilo Code", Pkg: "kilo"}

// New builds an Adapter, placing the database as Kilo does.
func New(o Options) *Adapter {
	return &Adapter{place: opencodedb.PlaceDB(o.DataDir, o.DB, dbName)}
}

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots are the data directory and, when KILO_DB puts the database
// elsewhere, its directory.
func (a *Adapter) Roots() []string { return a.place.Roots() }

// Match accepts the database and its -wal, one FileInfo for both, and the
// database a release channel keeps in the data directory instead
// (kilo-<channel>.db: Kilo's database path rule for channels other than
// latest, beta and prod).
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	if db, ok := a.place.MatchDB(path, "kilo"); ok {
		return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
	}
	return tally.FileInfo{}, false
}

// SkipDir leaves out every folder under the roots: the data directory
// also holds logs, snapshots and per-session diffs, and the database is at
// its top.
func (a *Adapter) SkipDir(root, dir string) bool { return dir != root }

// ReadDatabase reads kilo.db, whose tables are OpenCode's.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return opencodedb.Read(ctx, path, kiloDB)
}
