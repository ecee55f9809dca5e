package opencode

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/opencodedb"
)

// legacyTodo reads storage/todo/<session>.json, the array Todo.update
// writes: the whole current list of one session.
type legacyTodo struct{}

func (legacyTodo) State() []byte { return nil }

func (legacyTodo) Line(data []byte, _ int64, emit func(tally.Event)) error {
	var todos []struct {
		ID       string `json:"id"`
		Content  string `json:"content"`
		Status   string `json:"status"`
		Priority string `json:"priority"`
	}
	if err := json.Unmarshal(data, &todos); err != nil {
		return tally.Errorf(tally.CodeInvalid, "opencode.todo", "todo file is not a JSON list of todos: %v", err)
	}
	items := make([]tally.Item, len(todos))
	for i, t := range todos {
		items[i] = opencodedb.Item(t.ID, t.Content, t.Status, t.Priority)
	}
	ev := tally.Event{Kind: tally.EventSnapshot, Items: items}
	if !utf8.Valid(data) { // encoding/json read it with U+FFFD for the bad bytes
		ev.Repair = tally.RepairNotUTF8
	}
	emit(ev)
	return nil
}

// legacySession reads storage/session/<project>/<session>.json, the
// session's Info: its title, directory and times.
type legacySession struct{}

func (legacySession) State() []byte { return nil }

func (legacySession) Line(data []byte, _ int64, emit func(tally.Event)) error {
	var s struct {
		ID        string `json:"id"`
		Title     string `json:"title"`
		Directory string `json:"directory"`
		Time      struct {
			Created  int64 `json:"created"`
			Updated  int64 `json:"updated"`
			Archived int64 `json:"archived"`
		} `json:"time"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return tally.Errorf(tally.CodeInvalid, "opencode.session", "session file is not a JSON session: %v", err)
	}
	emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: s.ID, Title: s.Title, Project: s.Directory}, At: opencodedb.Millis(s.Time.Created)})
	end := tally.Meta{}
	if s.Time.Archived > 0 {
		end.Signal = tally.SignalEnded
	}
	emit(tally.Event{Kind: tally.EventMeta, Meta: end, At: opencodedb.Millis(s.Time.Updated)})
	return nil
}
