package opencodedb

import (
	"path/filepath"
	"strings"
)

// Place is where an OpenCode-schema agent keeps its database, resolved as
// OpenCode does it (and Kilo Code, its fork): the data directory and the
// database file, "" when the agent keeps none. One rule for both, so that
// a change to how OpenCode places its database is made once.
type Place struct {
	DataDir string // "" reads nothing
	DB      string // "" when the database is in memory only
}

// PlaceDB places the database of an agent whose default file is name
// (opencode.db, kilo.db) in dataDir, given the value of its environment
// variable (OPENCODE_DB, KILO_DB): a path relative to dataDir unless
// absolute, ":memory:" for no file, "" for the default.
func PlaceDB(dataDir, env, name string) Place {
	if dataDir == "" {
		return Place{}
	}
	dir := filepath.Clean(dataDir)
	db := env
	switch {
	case db == ":memory:":
		return Place{DataDir: dir}
	case db == "":
		db = filepath.Join(dir, name)
	case !filepath.IsAbs(db):
		db = filepath.Join(dir, db)
	}
	return Place{DataDir: dir, DB: filepath.Clean(db)}
}

// Roots are the data directory and, when the environment puts the
// database elsewhere, its directory.
func (p Place) Roots() []string {
	if p.DataDir == "" {
		return nil
	}
	roots := []string{p.DataDir}
	if p.DB != "" && filepath.Dir(p.DB) != p.DataDir {
		roots = append(roots, filepath.Dir(p.DB))
	}
	return roots
}

// MatchDB tells whether path (or its -wal) is the database: the placed one,
// or the one a release channel keeps in the data directory instead
// (<prefix>-<channel>.db, prefix being "opencode" or "kilo"); db is the
// database's own path.
func (p Place) MatchDB(path, prefix string) (db string, ok bool) {
	db = strings.TrimSuffix(path, "-wal")
	if db == p.DB || filepath.Dir(db) == p.DataDir && isChannelDB(filepath.Base(db), prefix) {
		return db, true
	}
	return "", false
}

// isChannelDB tells <prefix>-<channel>.db, the database of a release
// other than the stable one.
func isChannelDB(name, prefix string) bool {
	ch, ok := strings.CutPrefix(name, prefix+"-")
	if !ok {
		return false
	}
	ch, ok = strings.CutSuffix(ch, ".db")
	return ok && ch != "" && !strings.ContainsAny(ch, "/\\")
}
