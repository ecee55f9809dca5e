package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Options configure an Adapter.
type Options struct {
	// Home is Gemini CLI's own directory (the one holding settings.json
	// and tmp/), as the caller resolved it: Gemini CLI's rule is
	// $GEMINI_CLI_HOME/.gemini when that is set — the CLI takes
	// GEMINI_CLI_HOME as its home directory, not as .gemini — else
	// ~/.gemini. "" reads nothing.
	Home string
}

// Adapter knows where Gemini CLI writes its chat records and how to read
// them.
type Adapter struct {
	home string
	// tracker: settings.json turns the task tracker on; trackerKnown: the
	// file could be read (offered.go).
	tracker, trackerKnown bool

	mu       sync.Mutex
	projects map[string]string // projectId -> project path ("" = unknown)
	ids      map[string]string // main chat file -> its full session id
}

var (
	_ tally.StreamReader = (*Adapter)(nil)
)

func New(o Options) *Adapter {
	a := &Adapter{home: o.Home, projects: make(map[string]string), ids: make(map[string]string)}
	a.tracker, a.trackerKnown = trackerEnabled(o.Home)
	return a
}

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{filepath.Join(a.home, "tmp")}
}

const sessionPrefix = "session-"

// Match accepts, under <root> = <home>/tmp:
//   - <projectId>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl, the append
//     log (Gemini CLI ≥ 2026-04);
//   - <projectId>/chats/session-…-<id8>.json, the legacy record rewritten
//     whole (LayoutWhole), unless the .jsonl it is migrated to exists beside it:
//     the CLI copies every message over and keeps the old file, and both
//     would show the same list twice;
//   - <projectId>/chats/<parentSessionId>/<sessionId>.jsonl, a sub-agent's
//     chat (List = its session id).
//
// Session is the full session id, what `gemini --resume` takes: a main
// file's name holds only its first 8 characters, so the id is read from the
// record's first line (see sessionID), the name's 8 characters being the
// fallback; a sub-agent's folder is named by its parent's full id. An empty
// main file is not matched yet: its header comes with its first write.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) < 3 || parts[1] != "chats" {
		return tally.FileInfo{}, false
	}
	name := parts[len(parts)-1]
	switch len(parts) {
	case 3:
		layout := tally.LayoutLog
		var stem string
		switch {
		case strings.HasSuffix(name, ".jsonl"):
			stem = strings.TrimSuffix(name, ".jsonl")
		case strings.HasSuffix(name, ".json"):
			if _, err := os.Stat(path + "l"); err == nil {
				return tally.FileInfo{}, false
			}
			stem, layout = strings.TrimSuffix(name, ".json"), tally.LayoutWhole
		default:
			return tally.FileInfo{}, false
		}
		short := shortID(stem)
		if short == "" {
			return tally.FileInfo{}, false
		}
		id, ok := a.sessionID(path, short)
		if !ok {
			return tally.FileInfo{}, false
		}
		return tally.FileInfo{Path: path, Session: id, Layout: layout}, true
	case 4:
		sub, ok := strings.CutSuffix(name, ".jsonl")
		parent := parts[2]
		if !ok || sub == "" || len(parent) < 8 {
			return tally.FileInfo{}, false
		}
		return tally.FileInfo{Path: path, Session: parent, List: sub}, true
	}
	return tally.FileInfo{}, false
}

// shortID is the id part of session-<YYYY-MM-DDTHH-MM>-<id8>, "" if stem is
// not so named.
func shortID(stem string) string {
	rest, ok := strings.CutPrefix(stem, sessionPrefix)
	if !ok {
		return ""
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 || i+1 == len(rest) {
		return ""
	}
	return rest[i+1:]
}

// NewDecoder returns a decoder for one file, resuming from state.
func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	d, err := newDecoder(f, state)
	if err != nil {
		return nil, err
	}
	d.home = a.home
	d.tracker, d.trackerKnown = a.tracker, a.trackerKnown
	if roots := a.Roots(); len(roots) > 0 && f.Path != "" {
		if parts, ok := adapter.Below(roots[0], f.Path); ok && len(parts) >= 3 && parts[1] == "chats" {
			d.projectID = parts[0]
			d.projectPath = a.projectPath(parts[0])
		}
	}
	return d, nil
}
