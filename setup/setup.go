package setup

import (
	"bytes"
	"errors"
	"io/fs"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/tallyhq/tally/internal/safefile"
)

// Options say what to set up.
type Options struct {
	// Tally is the command that runs tally (an absolute path is safest:
	// agents run hooks with their own PATH).
	Tally string
	// GuardStop adds the Stop hook that refuses a stop while unblocked
	// work remains.
	GuardStop bool
	// RemoteApprovals adds the hook that lets a permission request (or a
	// plan's approval) be answered from the board, a phone or tally
	// allow/deny: Claude Code's PermissionRequest.
	RemoteApprovals bool
	// EnableTodoTools sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in Claude
	// Code's settings.
	EnableTodoTools bool
	// EnableTaskTracker turns Gemini CLI's task tracker on
	// (experimental.taskTracker): with Gemini 3 models, which Gemini CLI
	// offers no write_todos, it is the only list they keep.
	EnableTaskTracker bool
	// Uninstall removes Tally's entries instead.
	Uninstall bool
	// Owned is the record of the entries earlier runs added (LoadOwned);
	// nil is none.
	Owned Owned
}

// Target is one agent's settings, found where the agent looks for them
// (the caller resolves its folders, as each agent's descriptor says).
type Target interface {
	// Plan reads the agent's files and returns the edits that set Tally up
	// (or, with Uninstall, take it away), without writing anything.
	Plan(o Options) (Plan, error)
}

// Plan is what a setup run would do.
type Plan struct {
	Edits []Edit
	// Notes say what the user should know: what each change is for, and
	// what is left to do by hand.
	Notes []string
	// Owned is the record of what setup added once the plan is applied
	// (SaveOwned keeps it); nil when the target records nothing.
	Owned Owned
}

// Changed tells whether any file would change.
func (p Plan) Changed() bool {
	for _, e := range p.Edits {
		if e.Changed() {
			return true
		}
	}
	return false
}

// Edit is one file's content before and after.
type Edit struct {
	Path string
	// Target is the file written: Path, or, when Path is a link (a
	// dotfiles manager links settings files), the file it links to, so
	// the link stays and its target gets the change.
	Target string
	// Before is nil when the file does not exist yet.
	Before, After []byte
	// What says, one line each, what the edit does.
	What []string
	// redo makes the edit again on the file as it is now, when another
	// writer changed it after Plan read it (see Apply); nil: the file
	// must not have changed.
	redo func(before []byte) (after []byte, what []string, err error)
	// agentLock is the lock the agent itself takes to write the file
	// (see takeAgentLock); "" when it takes none.
	agentLock string
}

// Linked tells whether the edit is written through a link to Target.
func (e Edit) Linked() bool { return e.Target != "" && e.Target != e.Path }

// Changed tells whether the edit changes the file.
func (e Edit) Changed() bool { return !bytes.Equal(e.Before, e.After) }

// Diff is the edit as a unified diff, "" when nothing changes.
func (e Edit) Diff() string {
	if !e.Changed() {
		return ""
	}
	from := e.Path
	if e.Before == nil {
		from = "/dev/null"
	}
	return udiff.Unified(from, e.Path, string(e.Before), string(e.After))
}

// maxSettings bounds a settings file: Claude Code's .claude.json keeps
// every project's history and grows to megabytes, never to this.
const maxSettings = 64 << 20

// readFile reads a settings file; a missing one reads as nil. A link is
// followed (dotfiles managers link settings files), but only a regular
// file is read: a FIFO would freeze setup, a device never end.
func readFile(path string) ([]byte, error) {
	b, err := safefile.ReadRegular(path, maxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}
