package hermes

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
)

var (
	_ tally.StreamReader   = (*Adapter)(nil)
	_ tally.DatabaseReader = (*Adapter)(nil)
)

// Options configure an Adapter.
type Options struct {
	// Home is Hermes' home directory, as the caller resolved it (where
	// Hermes itself looks, hermes_constants.py: $HERMES_HOME, else
	// ~/.hermes); "" reads nothing.
	Home string
}

// Adapter reads Hermes' state.db, its per-session JSON logs and the
// message stream form.
type Adapter struct {
	home string
}

func New(opts Options) *Adapter {
	if opts.Home == "" {
		return &Adapter{}
	}
	return &Adapter{home: filepath.Clean(opts.Home)}
}

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots is Hermes' home: state.db is at its top, session logs in
// sessions/.
func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{a.home}
}

const dbName = "state.db"

// Match accepts state.db and its -wal (both naming the database, which
// holds every session), and sessions/session_<id>.json. The logs are read
// only where there is no state.db: since state.db exists Hermes writes
// them only when asked to (sessions.write_json_snapshots), they repeat
// what the database holds, and a session read from both would show its
// list twice.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return tally.FileInfo{}, false
	}
	rel = filepath.ToSlash(rel)
	switch rel {
	case dbName, dbName + "-wal":
		return tally.FileInfo{Path: filepath.Join(root, dbName), Layout: tally.LayoutDatabase}, true
	}
	id, ok := logID(rel)
	if !ok {
		return tally.FileInfo{}, false
	}
	if _, err := os.Stat(filepath.Join(root, dbName)); err == nil {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: path, Session: id, Layout: tally.LayoutWhole}, true
}

// logID is the session id of sessions/session_<id>.json; sessions.json,
// the gateway's index, is not a log.
func logID(rel string) (string, bool) {
	name, ok := strings.CutPrefix(rel, "sessions/session_")
	if !ok || strings.Contains(name, "/") {
		return "", false
	}
	id, ok := strings.CutSuffix(name, ".json")
	return id, ok && id != ""
}

// NewDecoder returns the decoder of a session log (LayoutWhole) or of the
// stream form (LayoutLog). state.db is read with ReadDatabase.
func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	switch f.Layout {
	case tally.LayoutWhole:
		return &logDecoder{session: f.Session}, nil
	case tally.LayoutLog:
		return newStreamDecoder(state), nil
	case tally.LayoutDatabase:
	}
	return nil, tally.Errorf(tally.CodeInvalid, "hermes.NewDecoder", "%s is a database: it is read whole, not line by line", f.Path)
}

// Sniff recognises the stream form: Hermes writes a message with its role
// first ({"role": ...}), which no other agent's line does.
func (a *Adapter) Sniff(line []byte) bool {
	s := strings.TrimLeft(string(line), " \t")
	if !strings.HasPrefix(s, "{") {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(s[1:], " \t"), `"role"`)
}

var _ tally.DirSkipper = (*Adapter)(nil)

// SkipDir leaves out everything under Hermes' home but sessions/: the home
// also holds Hermes' checkout, its Python environment and caches, which a
// walk every few seconds and a watch per directory must not cover.
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err != nil || filepath.ToSlash(rel) != "sessions"
}
