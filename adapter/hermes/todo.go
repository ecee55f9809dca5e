package hermes

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tallyhq/tally"
)

// Tool names of Hermes' todo tool: "todo" up to @544ac55, "todo_list" in
// later revisions (tools/todo_tool.py).
const (
	toolTodo     = "todo"
	toolTodoList = "todo_list"
)

func isTodoTool(name string) bool { return name == toolTodo || name == toolTodoList }

// maxPayload bounds one arguments or result text. Hermes itself refuses a
// todo result over 512,000 characters when it rebuilds its store; twice
// that is room for escaping.
const maxPayload = 1 << 20

// statusWords is Hermes' VALID_STATUSES: the only words its store keeps.
var statusWords = map[string]tally.Status{
	"pending":     tally.StatusPending,
	"in_progress": tally.StatusInProgress,
	"completed":   tally.StatusCompleted,
	"cancelled":   tally.StatusCancelled,
}

// argStatus maps a status the model wrote in a call the way Hermes'
// _validate does: trimmed, lower-cased, and anything else becomes pending,
// because that is what Hermes stored. The model's own word stays in
// RawStatus so a reader can see why an item it marked "done" is pending.
func argStatus(word string) (tally.Status, string) {
	if s, ok := statusWords[strings.ToLower(strings.TrimSpace(word))]; ok {
		return s, ""
	}
	return tally.StatusPending, word
}

// resultStatus maps a status Hermes returned. Hermes only returns its four
// words, so another one comes from a Hermes this code does not know: it is
// kept as unknown rather than guessed.
func resultStatus(word string) (tally.Status, string) {
	if s, ok := statusWords[word]; ok {
		return s, ""
	}
	return tally.StatusUnknown, word
}

// errRead marks a call without todos: Hermes reads the list, nothing
// changes.
var errRead = errors.New("read")

// parseArgs turns a todo call's arguments into the event Hermes' store
// applied: a snapshot for merge=false, a merge for merge=true. It is the
// fallback for a call whose result is missing; the result, when there is
// one, is what the store held afterwards.
func parseArgs(raw []byte) (tally.Event, error) {
	if len(raw) > maxPayload {
		return tally.Event{}, errors.New("arguments over 1 MiB")
	}
	raw = unwrapString(raw)
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return tally.Event{}, err
	}
	todos := unwrapString(args["todos"])
	if len(todos) == 0 || string(todos) == "null" {
		return tally.Event{}, errRead
	}
	var list []json.RawMessage
	if err := json.Unmarshal(todos, &list); err != nil {
		return tally.Event{}, errors.New("todos is not a list")
	}
	list = dedupeByID(list)
	if truthy(args["merge"]) {
		return tally.Event{Kind: tally.EventMerge, Items: mergeItems(list)}, nil
	}
	items := make([]tally.Item, 0, len(list))
	for _, t := range list {
		items = append(items, validate(t))
	}
	return tally.Event{Kind: tally.EventSnapshot, Items: items}, nil
}

// unwrapString returns the JSON inside raw when raw is a JSON string:
// OpenAI arguments are a string holding JSON, and Hermes accepts todos
// sent as a string too.
func unwrapString(raw []byte) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return raw
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	return []byte(s)
}

// truthy is Python's truth value of a JSON value: merge="yes" merges.
func truthy(raw json.RawMessage) bool {
	switch s := string(bytes.TrimSpace(raw)); s {
	case "", "null", "false", "0", `""`, "[]", "{}":
		return false
	default:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f != 0
		}
		return true
	}
}

// pyStr is Python's str() of a JSON value, which is how Hermes reads ids,
// content and status.
func pyStr(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case 't':
		return "True"
	case 'f':
		return "False"
	case 'n':
		return "None"
	}
	return string(raw)
}

func fields(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// itemID is Hermes' str(item.get("id", "")).strip().
func itemID(m map[string]json.RawMessage) string {
	v, ok := m["id"]
	if !ok {
		return ""
	}
	return strings.TrimSpace(pyStr(v))
}

// dedupeByID keeps the last occurrence of each id, in its own position;
// items without an id never collapse (later revisions' _dedupe_by_id).
func dedupeByID(list []json.RawMessage) []json.RawMessage {
	last := make(map[string]int, len(list))
	for i, t := range list {
		if m, ok := fields(t); ok {
			if id := itemID(m); id != "" {
				last[id] = i
			}
		}
	}
	out := list[:0:0]
	for i, t := range list {
		if m, ok := fields(t); ok {
			if id := itemID(m); id != "" && last[id] != i {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// validate is Hermes' _validate: a missing id becomes "?", missing content
// "(no description)", an invalid status pending.
func validate(raw json.RawMessage) tally.Item {
	m, ok := fields(raw)
	if !ok {
		return tally.Item{ID: "?", Title: "(invalid item)", Status: tally.StatusPending}
	}
	it := tally.Item{ID: itemID(m), Title: strings.TrimSpace(pyStr(m["content"]))}
	if it.ID == "" {
		it.ID = "?"
	}
	if it.Title == "" {
		it.Title = "(no description)"
	}
	word := "pending"
	if v, ok := m["status"]; ok {
		word = pyStr(v)
	}
	it.Status, it.RawStatus = argStatus(word)
	return it
}

// mergeItems are the items of a merge=true call. Items without an id are
// skipped, as Hermes skips them. A status Hermes would ignore (invalid)
// is left out, so the item keeps the status it has.
func mergeItems(list []json.RawMessage) []tally.Item {
	items := make([]tally.Item, 0, len(list))
	for _, t := range list {
		m, ok := fields(t)
		if !ok {
			continue
		}
		it := tally.Item{ID: itemID(m), Title: strings.TrimSpace(pyStr(m["content"]))}
		if it.ID == "" {
			continue
		}
		if v, ok := m["status"]; ok {
			if s, ok := statusWords[strings.ToLower(strings.TrimSpace(pyStr(v)))]; ok {
				it.Status = s
			}
		}
		items = append(items, it)
	}
	return items
}

// result is the JSON text every todo call returns.
type result struct {
	Todos *[]struct {
		ID      string `json:"id"`
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"todos"`
	Error json.RawMessage `json:"error"`
}

// errFailed marks a result saying the call failed: the list did not
// change, so the call's arguments must not be applied either.
var errFailed = errors.New("the todo call failed")

// parseResult reads the full list a todo call returned: the store's state
// after the call, which is why it is preferred to the arguments.
func parseResult(content []byte) ([]tally.Item, error) {
	if len(content) > maxPayload {
		return nil, errors.New("result over 1 MiB")
	}
	var r result
	if err := json.Unmarshal(unwrapString(content), &r); err != nil {
		return nil, err
	}
	if r.Todos == nil {
		if len(r.Error) > 0 {
			return nil, errFailed
		}
		return nil, errors.New("result has no todos")
	}
	items := make([]tally.Item, len(*r.Todos))
	for i, t := range *r.Todos {
		items[i] = tally.Item{ID: t.ID, Title: t.Content}
		items[i].Status, items[i].RawStatus = resultStatus(t.Status)
	}
	return items, nil
}
