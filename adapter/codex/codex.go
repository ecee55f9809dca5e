package codex

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

var (
	_ tally.StreamReader = (*Adapter)(nil)
	_ tally.Recenter     = (*decoder)(nil)
)

// Options configure an Adapter.
type Options struct {
	// Home is Codex's home directory, as the caller resolved it (where
	// Codex itself looks: $CODEX_HOME, else ~/.codex); "" reads nothing.
	Home string
}

// Adapter reads Codex rollout files and `codex exec --json` streams.
type Adapter struct {
	home string
	// planTool: the config enables update_plan (see planToolEnabled).
	planTool bool
}

// New makes an adapter reading opts.Home; its config.toml is read once,
// for whether update_plan is offered.
func New(opts Options) *Adapter {
	return &Adapter{home: opts.Home, planTool: planToolEnabled(opts.Home)}
}

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots are the live and the archived rollout folders.
func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{filepath.Join(a.home, "sessions"), filepath.Join(a.home, "archived_sessions")}
}

// Match accepts sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl and the
// flat archived_sessions/rollout-<time>-<uuid>.jsonl. The session is the
// uuid in the name, which is the thread id Codex prints and resumes by.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	parts, ok := adapter.Below(root, path)
	if !ok {
		return tally.FileInfo{}, false
	}
	switch len(parts) {
	case 1:
	case 4:
		if !digits(parts[0], 4) || !digits(parts[1], 2) || !digits(parts[2], 2) {
			return tally.FileInfo{}, false
		}
	default:
		return tally.FileInfo{}, false
	}
	id, ok := rolloutID(parts[len(parts)-1])
	if !ok {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: path, Session: id}, true
}

// NewDecoder returns a decoder for a rollout file or an exec stream.
func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	d, err := newDecoder(f.Session, state)
	if err != nil {
		return nil, err
	}
	d.planTool = a.planTool
	return d, nil
}

// rolloutID returns the uuid of a rollout file name:
// rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl.
func rolloutID(name string) (string, bool) {
	const prefix, suffix, stamp = "rollout-", ".jsonl", len("2006-01-02T15-04-05")
	if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
		return "", false
	}
	mid := name[len(prefix) : len(name)-len(suffix)]
	if len(mid) != stamp+1+36 || mid[stamp] != '-' || !timeStamp(mid[:stamp]) {
		return "", false
	}
	id := mid[stamp+1:]
	if !uuid(id) {
		return "", false
	}
	return id, true
}

// timeStamp checks the YYYY-MM-DDThh-mm-ss shape of a rollout name.
func timeStamp(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 4, 7, 13, 16:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

func uuid(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return true
}

func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
