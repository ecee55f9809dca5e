package claude

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Options configure an Adapter.
type Options struct {
	// ConfigDir is Claude Code's config directory, as the caller resolved
	// it (Claude Code's own rule: $CLAUDE_CONFIG_DIR, else ~/.claude);
	// "" reads nothing.
	ConfigDir string
}

// Adapter knows where Claude Code writes its transcripts and how to read
// them.
type Adapter struct {
	configDir string
}

var (
	_ tally.StreamReader    = (*Adapter)(nil)
	_ tally.DirectoryReader = (*Adapter)(nil)
	_ tally.DirSkipper      = (*Adapter)(nil)
)

func New(o Options) *Adapter { return &Adapter{configDir: o.ConfigDir} }

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots are the transcripts' folder (projects) and the task lists' (tasks).
func (a *Adapter) Roots() []string {
	if a.configDir == "" {
		return nil
	}
	return []string{filepath.Join(a.configDir, "projects"), a.tasksRoot()}
}

func (a *Adapter) tasksRoot() string { return filepath.Join(a.configDir, tasksDir) }

// SkipDir leaves out what is under a task list's directory: the lock
// directories Claude Code makes and removes around every write.
func (a *Adapter) SkipDir(root, dir string) bool {
	if root != a.tasksRoot() {
		return false
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && strings.Contains(filepath.ToSlash(rel), "/")
}

// Match accepts, under the projects root, <slug>/<sessionId>.jsonl (a
// session) and <slug>/<sessionId>/subagents/[workflows/<wf>/]agent-<id>.jsonl
// (a sub-agent of that session); sidecars (.meta.json) and anything else
// are not logs. Under the tasks root it accepts a task list's directory,
// its task files (<list>/<id>.json) and its .highwatermark, each as the
// directory (LayoutDirectory) and the list's id as the session: a list
// Claude Code named after its session joins that session's record; one
// named otherwise is Shared.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	if root == a.tasksRoot() {
		return matchTaskList(root, path)
	}
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) < 2 || !strings.HasSuffix(parts[len(parts)-1], ".jsonl") {
		return tally.FileInfo{}, false
	}
	name := strings.TrimSuffix(parts[len(parts)-1], ".jsonl")
	switch {
	case len(parts) == 2:
		if name == "" {
			return tally.FileInfo{}, false
		}
		return tally.FileInfo{Path: path, Session: name}, true
	case len(parts) == 4 && parts[2] == "subagents",
		len(parts) == 6 && parts[2] == "subagents" && parts[3] == "workflows" && parts[4] != "":
		id, ok := strings.CutPrefix(name, "agent-")
		if !ok || id == "" || parts[1] == "" {
			return tally.FileInfo{}, false
		}
		return tally.FileInfo{Path: path, Session: parts[1], List: id}, true
	}
	return tally.FileInfo{}, false
}

// NewDecoder returns a decoder for one file, resuming from state.
func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	return newDecoder(f, state)
}

// Sniff recognises a Claude Code transcript or stream-json line: both carry
// a session id under Claude's own key spelling.
func (a *Adapter) Sniff(line []byte) bool {
	s := string(line)
	return strings.HasPrefix(s, "{") &&
		(strings.Contains(s, `"sessionId":"`) ||
			strings.Contains(s, `"session_id":"`) && strings.Contains(s, `"type":"system"`) ||
			strings.Contains(s, `"parent_tool_use_id"`))
}

func matchTaskList(root, path string) (tally.FileInfo, bool) {
	parts, ok := adapter.Below(root, path)
	if !ok {
		return tally.FileInfo{}, false
	}
	list := parts[0]
	if strings.HasPrefix(list, ".") {
		return tally.FileInfo{}, false
	}
	switch {
	case len(parts) == 1:
	case len(parts) == 2 && (isTaskFile(parts[1]) || parts[1] == highWatermark):
	default:
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: filepath.Join(root, list), Session: list, Layout: tally.LayoutDirectory, Shared: !sessionID(list)}, true
}

// sessionID tells a name shaped as Claude Code's session ids are, a UUID
// (8-4-4-4-12 lowercase hex digits): the name Claude Code gives a
// session's own task list. Any other name is one CLAUDE_CODE_TASK_LIST_ID
// or an agent team gave a list to share.
func sessionID(name string) bool {
	if len(name) != 36 {
		return false
	}
	for i, r := range name {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
				return false
			}
		}
	}
	return true
}
