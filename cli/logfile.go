package cli

import (
	"os"
	"path/filepath"

	"github.com/tallyhq/tally/internal/safefile"
)

// maxLog is the size past which Tally's log is moved to tally.log.1 and
// started again, so it never grows without bound.
const maxLog = 1 << 20

// logPath is Tally's log file: $XDG_STATE_HOME/tally/tally.log, else
// ~/.local/state/tally/tally.log. It is where commands that must stay
// silent, like tally hook, say what went wrong.
func (a *app) logPath() string {
	dir := a.env.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		dir = filepath.Join(a.env.Home, ".local", "state")
	}
	return filepath.Join(dir, "tally", "tally.log")
}

// appendLog adds a line to the log. Failing to log is not reported: there
// is nowhere left to report it.
func appendLog(path, line string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > maxLog {
		_ = os.Rename(path, path+".1")
	}
	// Never through a link, never waiting on a FIFO: a hook logs here,
	// and a hook must not hang.
	f, err := safefile.AppendPath(path, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line + "\n")
}
