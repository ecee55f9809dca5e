package droid

import (
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Options configure an Adapter.
type Options struct {
	// Home is Droid's own directory (the one holding sessions/ and
	// settings.json), as the caller resolved it. "" reads nothing.
	Home string
}

// Adapter knows where Droid keeps its session logs.
type Adapter struct{ home string }

var _ tally.LineReader = (*Adapter)(nil)

func New(o Options) *Adapter { return &Adapter{home: o.Home} }

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{filepath.Join(a.home, "sessions")}
}

// Match accepts <root>/<id>.jsonl and <root>/<folder>/<id>.jsonl, the
// session id being the file's name. Beside each log Droid keeps
// <id>.settings.json (the model, token counts), which is not read.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	if !strings.HasSuffix(path, ".jsonl") {
		return tally.FileInfo{}, false
	}
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) > 2 {
		return tally.FileInfo{}, false
	}
	id := strings.TrimSuffix(parts[len(parts)-1], ".jsonl")
	if id == "" {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: path, Session: id, Layout: tally.LayoutLog}, true
}

func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	return newDecoder(state)
}
