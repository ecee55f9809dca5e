package opencode

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/adapter/internal/opencodedb"
)

var (
	_ tally.LineReader     = (*Adapter)(nil)
	_ tally.DatabaseReader = (*Adapter)(nil)
)

// Options configure an Adapter, with paths the caller resolved from the
// environment the way OpenCode does.
type Options struct {
	// DataDir is OpenCode's data directory ($XDG_DATA_HOME/opencode, else
	// ~/.local/share/opencode); "" reads nothing.
	DataDir string
	// DB is the value of $OPENCODE_DB: the database's path, relative to
	// DataDir unless absolute; ":memory:" means there is no database
	// file; "" means <DataDir>/opencode.db.
	DB string
}

// Adapter reads OpenCode's opencode.db and its older JSON storage.
type Adapter struct {
	place opencodedb.Place
}

// New builds an Adapter, placing the database as OpenCode does.
func New(opts Options) *Adapter {
	return &Adapter{place: opencodedb.PlaceDB(opts.DataDir, opts.DB, dbName)}
}

const dbName = "opencode.db"

// openCodeDB is opencode.db, which holds every session.
var openCodeDB = agentdb.DB{Name: "OpenCode", Pkg: "opencode"}

// ReadDatabase reads opencode.db (package opencodedb).
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return opencodedb.Read(ctx, path, openCodeDB)
}

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots are the data directory (database and legacy storage/) and, when
// OPENCODE_DB puts the database elsewhere, its directory.
func (a *Adapter) Roots() []string { return a.place.Roots() }

// Match accepts the database and its -wal (one FileInfo for both: the
// database holds every session), the database of a release channel in the
// data directory (opencode-<channel>.db), and the legacy storage files
// storage/todo/<session>.json and storage/session/<project>/<session>.json.
// Legacy files are read only where there is no database: OpenCode 1.2
// copied them into it, and a session read from both would show twice.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return tally.FileInfo{}, false
	}
	if db, ok := a.place.MatchDB(path, "opencode"); ok {
		return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
	}
	if root != a.place.DataDir {
		return tally.FileInfo{}, false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) < 3 || parts[0] != "storage" {
		return tally.FileInfo{}, false
	}
	id, ok := strings.CutSuffix(parts[len(parts)-1], ".json")
	if !ok || id == "" {
		return tally.FileInfo{}, false
	}
	switch {
	case parts[1] == "todo" && len(parts) == 3, parts[1] == "session" && len(parts) == 4:
	default:
		return tally.FileInfo{}, false
	}
	if a.place.DB != "" {
		if _, err := os.Stat(a.place.DB); err == nil {
			return tally.FileInfo{}, false
		}
	}
	return tally.FileInfo{Path: path, Session: id, Layout: tally.LayoutWhole}, true
}

// NewDecoder returns the decoder of a legacy storage file (LayoutWhole).
// The database is read with ReadDatabase, and OpenCode writes no log or
// stream to read line by line.
func (a *Adapter) NewDecoder(f tally.FileInfo, _ []byte) (tally.Decoder, error) {
	switch {
	case f.Layout != tally.LayoutWhole:
		return nil, tally.Errorf(tally.CodeInvalid, "opencode.NewDecoder", "%s: OpenCode keeps no %s files", f.Path, f.Layout)
	case filepath.Base(filepath.Dir(f.Path)) == "todo":
		return legacyTodo{}, nil
	}
	return legacySession{}, nil
}

var _ tally.DirSkipper = (*Adapter)(nil)

// SkipDir leaves out all of OpenCode's data directory but the legacy
// storage/todo and storage/session trees: it also holds git snapshots of
// every project and per-message files, far too many to walk and watch.
func (a *Adapter) SkipDir(root, dir string) bool {
	parts, ok := adapter.Below(root, dir)
	if !ok || parts[0] != "storage" {
		return true
	}
	if len(parts) == 1 {
		return false
	}
	switch parts[1] {
	case "todo":
		return len(parts) > 2
	case "session":
		return len(parts) > 3
	}
	return true
}
