package copilot

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
)

var (
	_ tally.LineReader     = (*Adapter)(nil)
	_ tally.DatabaseReader = (*Adapter)(nil)
	_ tally.DirSkipper     = (*Adapter)(nil)
)

// Options configure an Adapter.
type Options struct {
	// Home is Copilot's home (COPILOT_HOME, else ~/.copilot), resolved by
	// the caller; "" reads nothing.
	Home string
}

// Adapter reads Copilot CLI's sessions: session-state/<id>/events.jsonl
// (the session's events) and session-state/<id>/session.db (its todos).
type Adapter struct {
	home string
}

func New(opts Options) *Adapter {
	a := &Adapter{}
	if opts.Home != "" {
		a.home = filepath.Clean(opts.Home)
	}
	return a
}

const (
	stateDir   = "session-state"
	eventsName = "events.jsonl"
	dbName     = "session.db"
)

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{a.home}
}

// Match accepts session-state/<id>/events.jsonl (a log of session id) and
// session-state/<id>/session.db with its -wal and -journal (a database
// holding that session's todos). The name is compared first, so a file
// that is neither costs a comparison.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	base := filepath.Base(path)
	var layout tally.Layout
	switch base {
	case eventsName:
		layout = tally.LayoutLog
	case dbName, dbName + "-wal", dbName + "-journal":
		layout = tally.LayoutDatabase
	default:
		return tally.FileInfo{}, false
	}
	dir := filepath.Dir(path)
	if filepath.Dir(dir) != filepath.Join(root, stateDir) {
		return tally.FileInfo{}, false
	}
	id := filepath.Base(dir)
	if layout == tally.LayoutDatabase {
		return tally.FileInfo{Path: filepath.Join(dir, dbName), Layout: layout}, true
	}
	return tally.FileInfo{Path: path, Session: id, Layout: layout}, true
}

// SkipDir keeps the walk to session-state/<id>: the home also holds the
// unpacked CLI (pkg), logs, plugins, and each session's checkpoints and
// file snapshots.
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	return parts[0] != stateDir || len(parts) > 2
}
