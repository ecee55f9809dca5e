package goose

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
)

var _ tally.DatabaseReader = (*Adapter)(nil)

// Options configure an Adapter.
type Options struct {
	// DataDir is Goose's data directory, absolute; its sessions database
	// is sessions/sessions.db inside. The caller resolves the default
	// (Descriptor). "" reads nothing.
	DataDir string
}

// Adapter reads Goose's sessions database.
type Adapter struct {
	root string
}

func New(opts Options) *Adapter {
	a := &Adapter{}
	if opts.DataDir != "" {
		a.root = filepath.Clean(opts.DataDir)
	}
	return a
}

const (
	sessionsDir = "sessions"
	dbName      = "sessions.db"
)

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.root == "" {
		return nil
	}
	return []string{a.root}
}

// Match accepts sessions/sessions.db under the root and its -wal, as one
// database. It compares names only: anything else under Goose's data
// folder (backups, logs, a legacy session's .jsonl) costs a suffix check.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	db := strings.TrimSuffix(path, "-wal")
	if !strings.HasSuffix(db, dbName) || filepath.Join(root, sessionsDir, dbName) != db {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
}

var _ tally.DirSkipper = (*Adapter)(nil)

// SkipDir keeps the walk of Goose's data folder to its sessions folder:
// nothing else there (backups of the database among them, which hold old
// copies of the same sessions) is read.
func (a *Adapter) SkipDir(root, dir string) bool {
	return dir != filepath.Clean(root) && dir != filepath.Join(root, sessionsDir)
}
