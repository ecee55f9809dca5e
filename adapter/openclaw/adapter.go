package openclaw

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
)

var (
	_ tally.DatabaseReader = (*Adapter)(nil)
	_ tally.DirSkipper     = (*Adapter)(nil)
)

// Options configure an Adapter.
type Options struct {
	// Root is OpenClaw's state directory, resolved by the caller
	// (OPENCLAW_STATE_DIR, else ~/.openclaw); "" reads nothing.
	Root string
}

// Adapter reads the per-agent databases under OpenClaw's state directory.
type Adapter struct {
	root string
}

func New(opts Options) *Adapter {
	a := &Adapter{}
	if opts.Root != "" {
		a.root = filepath.Clean(opts.Root)
	}
	return a
}

const (
	agentsDir = "agents"
	agentDir  = "agent"
	dbName    = "openclaw-agent.sqlite"
)

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.root == "" {
		return nil
	}
	return []string{a.root}
}

// Match accepts <root>/agents/<agentId>/agent/openclaw-agent.sqlite and its
// -wal: one database per OpenClaw agent, holding all its sessions. The
// name is looked at first, so a file that is not one costs a comparison.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	db := strings.TrimSuffix(path, "-wal")
	if !strings.HasSuffix(db, dbName) || filepath.Base(db) != dbName {
		return tally.FileInfo{}, false
	}
	rel, err := filepath.Rel(root, db)
	if err != nil || !filepath.IsLocal(rel) {
		return tally.FileInfo{}, false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) != 4 || parts[0] != agentsDir || parts[2] != agentDir {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
}

// SkipDir keeps the walk to agents/<id>/agent: the state directory also
// holds plugins, skills, logs, archived transcripts and workspaces.
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	switch len(parts) {
	case 1:
		return parts[0] != agentsDir
	case 2:
		return parts[0] != agentsDir
	case 3:
		return parts[0] != agentsDir || parts[2] != agentDir
	}
	return true
}
