package openhands

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Options configure an Adapter.
type Options struct {
	// Dir is the conversations directory, as the caller resolved it; ""
	// reads nothing.
	Dir string
}

// Adapter knows where OpenHands keeps its conversations.
type Adapter struct{ dir string }

var (
	_ tally.LineReader = (*Adapter)(nil)
	_ tally.DirSkipper = (*Adapter)(nil)
)

func New(o Options) *Adapter { return &Adapter{dir: o.Dir} }

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.dir == "" {
		return nil
	}
	return []string{a.dir}
}

const (
	tasksFile = "TASKS.json"
	stateFile = "base_state.json"
)

// Match accepts <id>/TASKS.json and <id>/base_state.json, both rewritten
// whole, the session being <id>.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	name := filepath.Base(path)
	if name != tasksFile && name != stateFile {
		return tally.FileInfo{}, false
	}
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) != 2 {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: path, Session: parts[0], Layout: tally.LayoutWhole}, true
}

// SkipDir leaves out each conversation's events/ and observations/: one
// file per event, many, and none read.
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err != nil || strings.Contains(filepath.ToSlash(rel), "/")
}

func (a *Adapter) NewDecoder(f tally.FileInfo, _ []byte) (tally.Decoder, error) {
	if filepath.Base(f.Path) == stateFile {
		return &stateDecoder{path: f.Path}, nil
	}
	return &tasksDecoder{path: f.Path}, nil
}

// modified is when path was last written, zero if it cannot be told.
func modified(path string) time.Time {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return time.Time{}
	}
	return st.ModTime()
}

// tasksDecoder reads TASKS.json, given whole.
type tasksDecoder struct {
	path string
	p    fastjson.Parser
}

func (d *tasksDecoder) State() []byte { return nil }

func (d *tasksDecoder) Line(data []byte, off int64, emit func(tally.Event)) error {
	v, err := d.p.ParseBytes(data)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if v.Type() != fastjson.TypeArray {
		return tally.Errorf(tally.CodeInvalid, "openhands", "TASKS.json is not a list")
	}
	arr := v.GetArray()
	items := make([]tally.Item, 0, len(arr))
	for _, t := range arr {
		it := tally.Item{Title: string(t.GetStringBytes("title")), Description: string(t.GetStringBytes("notes")), Source: tally.SourceTodo}
		it.Status, it.RawStatus = tally.StatusOf(string(t.GetStringBytes("status")))
		items = append(items, it)
	}
	emit(tally.Event{Kind: tally.EventSnapshot, At: modified(d.path), Items: items})
	return nil
}

// stateDecoder reads base_state.json, given whole: ConversationState as
// model_dump_json writes it.
type stateDecoder struct {
	path string
	p    fastjson.Parser
}

func (d *stateDecoder) State() []byte { return nil }

func (d *stateDecoder) Line(data []byte, off int64, emit func(tally.Event)) error {
	v, err := d.p.ParseBytes(data)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return tally.Errorf(tally.CodeInvalid, "openhands", "base_state.json is not an object")
	}
	m := tally.Meta{Project: string(v.GetStringBytes("workspace", "working_dir"))}
	switch string(v.GetStringBytes("execution_status")) {
	case "running":
		m.Signal = tally.SignalWorking
	case "waiting_for_confirmation":
		m.Signal = tally.SignalAsking
	case "idle", "paused", "finished", "error", "stuck":
		m.Signal = tally.SignalWaiting
	}
	emit(tally.Event{Kind: tally.EventMeta, At: modified(d.path), Meta: m})
	return nil
}
