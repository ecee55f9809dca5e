package kimi

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/internal/safefile"
	"github.com/valyala/fastjson"
)

// Options configure an Adapter.
type Options struct {
	// Home is Kimi's share directory ($KIMI_SHARE_DIR, else ~/.kimi), as
	// the caller resolved it; "" reads nothing.
	Home string
}

// Adapter knows where Kimi keeps its sessions.
type Adapter struct {
	home string

	mu      sync.Mutex
	folders map[string]string // md5 of a work folder -> the folder
}

var _ tally.LineReader = (*Adapter)(nil)

func New(o Options) *Adapter { return &Adapter{home: o.Home} }

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.home == "" {
		return nil
	}
	return []string{filepath.Join(a.home, "sessions")}
}

const (
	stateFile = "state.json"
	wireFile  = "wire.jsonl"
)

// Match accepts <hash>/<id>/state.json (rewritten whole) and
// <hash>/<id>/wire.jsonl (appended), the session being <id>.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	name := filepath.Base(path)
	if name != stateFile && name != wireFile {
		return tally.FileInfo{}, false
	}
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) != 3 {
		return tally.FileInfo{}, false
	}
	layout := tally.LayoutLog
	if name == stateFile {
		layout = tally.LayoutWhole
	}
	return tally.FileInfo{Path: path, Session: parts[1], Layout: layout}, true
}

func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	folder := ""
	if roots := a.Roots(); len(roots) > 0 && f.Path != "" {
		if rel, err := filepath.Rel(roots[0], f.Path); err == nil {
			if hash, _, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok {
				folder = a.folder(hash)
			}
		}
	}
	if f.Layout == tally.LayoutWhole {
		return &stateDecoder{folder: folder}, nil
	}
	return &wireDecoder{folder: folder, started: bytes.Contains(state, []byte("s")), titled: bytes.Contains(state, []byte("t"))}, nil
}

// maxMetadata bounds what is read of kimi.json.
const maxMetadata = 4 << 20

// folder is the work folder whose sessions' folder is named hash, from
// kimi.json (read again when a hash is not known yet); "" if none.
func (a *Adapter) folder(hash string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p, ok := a.folders[hash]; ok {
		return p
	}
	a.folders = map[string]string{}
	// kimi.json is read only if it is a regular file: a FIFO put in its
	// place is never opened, so it cannot hold the indexer.
	b, err := safefile.ReadRegular(filepath.Join(a.home, "kimi.json"), maxMetadata)
	var meta struct {
		WorkDirs []struct {
			Path string `json:"path"`
			Kaos string `json:"kaos"`
		} `json:"work_dirs"`
	}
	if err == nil && json.Unmarshal(b, &meta) == nil {
		for _, w := range meta.WorkDirs {
			sum := md5.Sum([]byte(w.Path))
			key := hex.EncodeToString(sum[:])
			if w.Kaos != "" && w.Kaos != "local" {
				key = w.Kaos + "_" + key
			}
			a.folders[key] = w.Path
		}
	}
	if _, ok := a.folders[hash]; !ok {
		a.folders[hash] = ""
	}
	return a.folders[hash]
}

// stateDecoder reads state.json, given whole.
type stateDecoder struct {
	folder string
	p      fastjson.Parser
}

func (d *stateDecoder) State() []byte { return nil }

// Line reads SessionState: {version, approval, custom_title, plan_mode,
// archived, archived_at, todos: [{title, status}], …}.
func (d *stateDecoder) Line(data []byte, off int64, emit func(tally.Event)) error {
	v, err := d.p.ParseBytes(data)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return tally.Errorf(tally.CodeInvalid, "kimi", "state.json is not an object")
	}
	m := tally.Meta{Project: d.folder, Title: string(v.GetStringBytes("custom_title"))}
	if v.GetBool("archived") {
		m.Signal = tally.SignalEnded
	}
	emit(tally.Event{Kind: tally.EventMeta, At: seconds(v.Get("archived_at")), Meta: m})
	todos := v.Get("todos")
	if todos == nil {
		return nil // a state saved before any list
	}
	if todos.Type() != fastjson.TypeArray {
		return tally.Errorf(tally.CodeInvalid, "kimi", "state.json: todos is not a list")
	}
	items := make([]tally.Item, 0, len(todos.GetArray()))
	for _, t := range todos.GetArray() {
		it := tally.Item{Title: string(t.GetStringBytes("title")), Source: tally.SourceTodo}
		it.Status, it.RawStatus = tally.StatusOf(string(t.GetStringBytes("status")))
		items = append(items, it)
	}
	emit(tally.Event{Kind: tally.EventSnapshot, Items: items})
	return nil
}

// wireDecoder reads wire.jsonl: a metadata line, then records
// {"timestamp": <seconds>, "message": {"type": …, "payload": {…}}}.
type wireDecoder struct {
	folder  string
	p       fastjson.Parser
	started bool // the first record's time was given
	titled  bool // the first prompt was read for a title
}

var _ tally.Recenter = (*wireDecoder)(nil)

func (d *wireDecoder) State() []byte {
	var b []byte
	if d.started {
		b = append(b, 's')
	}
	if d.titled {
		b = append(b, 't')
	}
	return b
}

var (
	recordPrefix = []byte(`{"timestamp":`)
	turnBegin    = []byte(`"type": "TurnBegin"`)
)

func (d *wireDecoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	prompt := !d.titled && bytes.Contains(line, turnBegin)
	if d.started && !prompt || !bytes.HasPrefix(line, recordPrefix) {
		return nil
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	at := seconds(v.Get("timestamp"))
	m := tally.Meta{}
	if !d.started && !at.IsZero() {
		d.started = true
		m.Project = d.folder
	}
	if prompt && string(v.GetStringBytes("message", "type")) == "TurnBegin" {
		// user_input is a string, or content parts ({"type": "text", "text"}).
		in := v.Get("message", "payload", "user_input")
		text := string(in.GetStringBytes())
		for _, p := range in.GetArray() {
			if text == "" {
				text = string(p.GetStringBytes("text"))
			}
		}
		if text != "" {
			d.titled = true
			m.Title, m.TitleWeak = tally.PromptTitle(text), true
		}
	}
	if m != (tally.Meta{}) || !at.IsZero() {
		emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: m})
	}
	return nil
}

// Recent reads the newest record's time and whose turn it is.
func (d *wireDecoder) Recent(line []byte, emit func(tally.Event)) bool {
	if !bytes.HasPrefix(line, recordPrefix) {
		return false
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return false
	}
	sig := tally.SignalWorking
	switch string(v.GetStringBytes("message", "type")) {
	case "TurnEnd":
		sig = tally.SignalWaiting
	case "ApprovalRequest", "QuestionRequest":
		sig = tally.SignalAsking
	}
	emit(tally.Event{Kind: tally.EventMeta, At: seconds(v.Get("timestamp")), Meta: tally.Meta{Signal: sig}})
	return true
}

// seconds reads Python's time.time(); zero when absent or not a time.
func seconds(v *fastjson.Value) time.Time {
	if v == nil || v.Type() != fastjson.TypeNumber {
		return time.Time{}
	}
	f := v.GetFloat64()
	if f <= 0 || f > 1e11 || math.IsNaN(f) {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}
