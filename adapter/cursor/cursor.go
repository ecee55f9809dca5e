package cursor

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Options configure an Adapter.
type Options struct {
	// Home is Cursor's .cursor directory, as the caller resolved it; ""
	// reads nothing.
	Home string
}

// Adapter knows where Cursor keeps its agent transcripts.
type Adapter struct{ home string }

var (
	_ tally.LineReader = (*Adapter)(nil)
	_ tally.DirSkipper = (*Adapter)(nil)
)

func New(o Options) *Adapter { return &Adapter{home: o.Home} }

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{filepath.Join(a.home, "projects")}
}

const transcripts = "agent-transcripts"

// Match accepts <slug>/agent-transcripts/<id>/<id>.jsonl and
// <slug>/agent-transcripts/<id>.jsonl, the session being <id>.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	if !strings.HasSuffix(path, ".jsonl") {
		return tally.FileInfo{}, false
	}
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) < 3 || len(parts) > 4 || parts[1] != transcripts {
		return tally.FileInfo{}, false
	}
	id := strings.TrimSuffix(parts[len(parts)-1], ".jsonl")
	if id == "" || len(parts) == 4 && parts[2] != id {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: path, Session: id, Layout: tally.LayoutLog}, true
}

// SkipDir walks only each project's agent-transcripts: a project folder
// also holds Cursor's terminals, tool outputs and other files.
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return true
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	switch len(parts) {
	case 1:
		return false
	case 2, 3:
		return parts[1] != transcripts
	}
	return true
}

func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	d := newDecoder(f.Path, state)
	if roots := a.Roots(); len(roots) > 0 && f.Path != "" {
		if rel, err := filepath.Rel(roots[0], f.Path); err == nil {
			if slug, _, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && slug != ".." {
				d.slug = slug
			}
		}
	}
	return d, nil
}

// maxProbes bounds the folders looked at to read a slug back.
const maxProbes = 256

// folderOf reads a project slug back against the disk: "home-me-my-api"
// is /home/me/my-api if that folder exists. Each '-' is a '/' or kept
// (Cursor also makes '.', '_' and spaces '-', which are not tried), the
// longest existing folder at each step first; "" when none is found.
func folderOf(slug string, isDir func(string) bool) string {
	words := strings.Split(strings.TrimPrefix(slug, "-"), "-")
	probes := 0
	var walk func(prefix string, rest []string) string
	walk = func(prefix string, rest []string) string {
		if len(rest) == 0 {
			return prefix
		}
		for n := len(rest); n >= 1; n-- {
			if probes++; probes > maxProbes {
				return ""
			}
			p := prefix + "/" + strings.Join(rest[:n], "-")
			if isDir(p) {
				if got := walk(p, rest[n:]); got != "" {
					return got
				}
			}
		}
		return ""
	}
	if len(words) == 0 || words[0] == "" {
		return ""
	}
	return walk("", words)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
