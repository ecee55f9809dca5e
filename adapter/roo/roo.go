package roo

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Options configure an Adapter.
type Options struct {
	// Dir is Roo Code's storage folder (the one holding tasks/), as the
	// caller resolved it; "" reads nothing.
	Dir string
}

// Adapter knows where Roo Code keeps its tasks.
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
	return []string{filepath.Join(a.dir, "tasks")}
}

const messagesFile = "ui_messages.json"

// Match accepts <task id>/ui_messages.json, rewritten whole.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	if filepath.Base(path) != messagesFile {
		return tally.FileInfo{}, false
	}
	parts, ok := adapter.Below(root, path)
	if !ok || len(parts) != 2 {
		return tally.FileInfo{}, false
	}
	return tally.FileInfo{Path: path, Session: parts[0], Layout: tally.LayoutWhole}, true
}

// SkipDir walks only the task folders, not what is inside them
// (checkpoints, attachments).
func (a *Adapter) SkipDir(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err != nil || strings.Contains(filepath.ToSlash(rel), "/")
}

func (a *Adapter) NewDecoder(tally.FileInfo, []byte) (tally.Decoder, error) { return decoder{}, nil }

// decoder reads ui_messages.json.
type decoder struct{}

var _ tally.WholeReader = decoder{}

func (decoder) State() []byte { return nil }

func (d decoder) Line(data []byte, _ int64, emit func(tally.Event)) error {
	return d.ReadWhole(bytes.NewReader(data), emit)
}

// message is a ClineMessage, as far as Tally reads it.
type message struct {
	Ts      int64  `json:"ts"`
	Type    string `json:"type"`
	Ask     string `json:"ask"`
	Say     string `json:"say"`
	Text    string `json:"text"`
	Partial bool   `json:"partial"`
}

// todoPayload is a tool message's text: {"tool": "updateTodoList",
// "todos": [{id, content, status}]}.
type todoPayload struct {
	Tool  string `json:"tool"`
	Todos []struct {
		ID      string `json:"id"`
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"todos"`
}

// ReadWhole reads the array a message at a time.
func (decoder) ReadWhole(r io.Reader, emit func(tally.Event)) error {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return tally.Errorf(tally.CodeInvalid, "roo", "ui_messages.json is not a list of messages")
	}
	var (
		first, last time.Time
		title       string
		todos       *todoPayload
		sig         tally.Signal
	)
	for n := 0; dec.More(); n++ {
		var m message
		if err := dec.Decode(&m); err != nil {
			return tally.Errorf(tally.CodeInvalid, "roo", "message %d: %v", n, err)
		}
		at := millis(m.Ts)
		if !at.IsZero() {
			if first.IsZero() {
				first = at
			}
			last = at
		}
		if n == 0 && m.Type == "say" && m.Text != "" {
			title = m.Text
		}
		if (m.Type == "ask" && m.Ask == "tool" || m.Type == "say" && m.Say == "user_edit_todos") && strings.Contains(m.Text, "updateTodoList") {
			var p todoPayload
			if json.Unmarshal([]byte(m.Text), &p) == nil && p.Tool == "updateTodoList" && p.Todos != nil {
				todos = &p
			}
		}
		if !m.Partial {
			sig = signalOf(m)
		}
	}
	meta := tally.Meta{Signal: sig}
	if title != "" {
		meta.Title, meta.TitleWeak = tally.PromptTitle(title), true
	}
	emit(tally.Event{Kind: tally.EventMeta, At: first, Meta: tally.Meta{Title: meta.Title, TitleWeak: meta.TitleWeak}})
	if todos != nil {
		items := make([]tally.Item, 0, len(todos.Todos))
		for _, t := range todos.Todos {
			it := tally.Item{ID: t.ID, Title: t.Content, Source: tally.SourceTodo}
			it.Status, it.RawStatus = tally.StatusOf(t.Status)
			items = append(items, it)
		}
		emit(tally.Event{Kind: tally.EventSnapshot, At: last, Items: items})
	}
	emit(tally.Event{Kind: tally.EventMeta, At: last, Meta: tally.Meta{Signal: sig}})
	return nil
}

// signalOf says whose turn a message leaves it: an ask waits for the user
// (a finished task's result, a resume, a question or an approval), a say
// is the agent at work.
func signalOf(m message) tally.Signal {
	if m.Type != "ask" {
		return tally.SignalWorking
	}
	switch m.Ask {
	case "completion_result", "resume_task", "resume_completed_task":
		return tally.SignalWaiting
	}
	return tally.SignalAsking
}

func millis(ms int64) time.Time {
	if ms <= 0 || ms > 1e14 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
