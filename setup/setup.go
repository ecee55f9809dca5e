package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

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
	// EnableTodoTools sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in Claude
	// Code's settings.
	EnableTodoTools bool
	// Uninstall removes Tally's entries instead.
	Uninstall bool
}

// Paths are the agents' settings directories, resolved by the caller as
// each agent resolves them.
type Paths struct {
	// ClaudeDir is Claude Code's config directory (CLAUDE_CONFIG_DIR, else
	// ~/.claude), where settings.json is.
	ClaudeDir string
	// ClaudeUserConfig is Claude Code's user config file, .claude.json:
	// in ClaudeDir when CLAUDE_CONFIG_DIR names it, else ~/.claude.json.
	ClaudeUserConfig string
	// CodexHome is Codex's home (CODEX_HOME, else ~/.codex).
	CodexHome string
	// GeminiDir is Gemini CLI's .gemini directory ($GEMINI_CLI_HOME/.gemini,
	// else ~/.gemini).
	GeminiDir string
}

// Target is one agent setup knows.
type Target interface {
	// Plan reads the agent's files and returns the edits that set Tally up
	// (or, with Uninstall, take it away), without writing anything.
	Plan(p Paths, o Options) (Plan, error)
}

// Targets are the agents `tally setup` takes, by name.
var Targets = map[string]Target{
	"claude": claudeTarget{},
	"codex":  codexTarget{},
	"gemini": geminiTarget{},
}

// Names lists the targets.
func Names() []string {
	names := make([]string, 0, len(Targets))
	for n := range Targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Plan is what a setup run would do.
type Plan struct {
	Edits []Edit
	// Notes say what the user should know: what each change is for, and
	// what is left to do by hand.
	Notes []string
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
	// Before is nil when the file does not exist yet.
	Before, After []byte
	// What says, one line each, what the edit does.
	What []string
}

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

// Apply writes the changed files of p: each one is backed up first, then
// replaced atomically with its permissions kept. It returns the backups it
// made. It stops at the first failure; files written before it stay
// written, with their backups.
func Apply(p Plan, now time.Time) (backups []string, err error) {
	for _, e := range p.Edits {
		if !e.Changed() {
			continue
		}
		mode := fs.FileMode(0o600)
		if fi, err := os.Stat(e.Path); err == nil {
			mode = fi.Mode().Perm()
		}
		if e.Before != nil {
			b, err := backup(e.Path, e.Before, mode, now)
			if err != nil {
				return backups, fmt.Errorf("backing up %s: %w", e.Path, err)
			}
			backups = append(backups, b)
		}
		if err := writeAtomic(e.Path, e.After, mode); err != nil {
			return backups, err
		}
	}
	return backups, nil
}

// backup writes data beside path under a name no earlier backup has.
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + ".tally-backup-" + now.UTC().Format("20060102T150405Z")
	for i := 0; ; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return name, err
	}
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tally-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
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
