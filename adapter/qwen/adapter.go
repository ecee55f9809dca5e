package qwen

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
)

var (
	_ tally.LineReader = (*Adapter)(nil)
	_ tally.DirSkipper = (*Adapter)(nil)
)

// Options configure an Adapter.
type Options struct {
	// Runtime is Qwen Code's runtime directory, resolved by the caller;
	// "" reads nothing.
	Runtime string
}

// Adapter reads Qwen Code's todo files and chat records.
type Adapter struct {
	root string
}

func New(opts Options) *Adapter {
	a := &Adapter{}
	if opts.Runtime != "" {
		a.root = filepath.Clean(opts.Runtime)
	}
	return a
}

const (
	todosDir    = "todos"
	projectsDir = "projects"
	chatsDir    = "chats"
)

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.root == "" {
		return nil
	}
	return []string{a.root}
}

// Match accepts todos/<sessionId>.json (the session's list, rewritten
// whole on every todo_write) and projects/<slug>/chats/<sessionId>.jsonl
// (its chat record, appended to). The extension is looked at first.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	switch {
	case strings.HasSuffix(path, ".jsonl"):
		dir := filepath.Dir(path)
		if filepath.Base(dir) != chatsDir || filepath.Dir(filepath.Dir(dir)) != filepath.Join(root, projectsDir) {
			return tally.FileInfo{}, false
		}
		return tally.FileInfo{Path: path, Session: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Layout: tally.LayoutLog}, true
	case strings.HasSuffix(path, ".json"):
		if filepath.Dir(path) != filepath.Join(root, todosDir) {
			return tally.FileInfo{}, false
		}
		id := strings.TrimSuffix(filepath.Base(path), ".json")
		if id == "default" || id == "" {
			return tally.FileInfo{}, false // a list kept without a session
		}
		return tally.FileInfo{Path: path, Session: id, Layout: tally.LayoutWhole}, true
	}
	return tally.FileInfo{}, false
}

// SkipDir keeps the walk to todos and projects/<slug>/chats: the runtime
// directory also holds debug logs, temp files, insights and sub-agents'
// records.
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	switch parts[0] {
	case todosDir:
		return len(parts) > 1
	case projectsDir:
		return len(parts) > 3 || (len(parts) == 3 && parts[2] != chatsDir)
	}
	return true
}
