package acp

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// A todo tool's call may carry the list in its content, the text the
// client shows for the call ({type:"content", content:{type:"text",
// text}}), rather than in rawInput. Two forms are read:
//   - the list as JSON: an array of {content|description, status} items,
//     or an object holding one under "todos" (a todo tool's output);
//   - the text write_todos answers its model with: "Successfully updated
//     the todo list. The current list is now:" followed by one
//     "N. [status] description" line per item ("Successfully cleared the
//     todo list." for an empty one).
//
// Gemini CLI 0.61.0 puts neither there: its write_todos and tracker calls
// come with empty content, and their list cannot be read over ACP at all.

const (
	todosUpdated = "Successfully updated the todo list. The current list is now:"
	todosCleared = "Successfully cleared the todo list."
)

var todoLine = regexp.MustCompile(`^\d+\. \[([a-z_]+)\] (.*)$`)

// contentTodos reads a list out of a tool call's content blocks. Most
// content is a diff or a command's output: a text is looked at only when
// its first bytes could start a list.
func contentTodos(blocks []*fastjson.Value) ([]tally.Item, bool) {
	for _, b := range blocks {
		if string(b.GetStringBytes("type")) != "content" || string(b.GetStringBytes("content", "type")) != "text" {
			continue
		}
		raw := bytes.TrimSpace(b.GetStringBytes("content", "text"))
		switch {
		case bytes.HasPrefix(raw, []byte("Successfully ")):
			if items, ok := textTodos(string(raw)); ok {
				return items, true
			}
		case (bytes.HasPrefix(raw, []byte("[")) || bytes.HasPrefix(raw, []byte("{"))) && bytes.Contains(raw, []byte(`"status"`)):
			if items, ok := jsonTodos(raw); ok {
				return items, true
			}
		}
	}
	return nil, false
}

// textTodos reads write_todos' answer to its model.
func textTodos(text string) ([]tally.Item, bool) {
	if text == todosCleared {
		return []tally.Item{}, true
	}
	rest, ok := strings.CutPrefix(text, todosUpdated)
	if !ok {
		return nil, false
	}
	var items []tally.Item
	for _, line := range strings.Split(strings.TrimSpace(rest), "\n") {
		m := todoLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			return nil, false // not the answer's shape: not read as a list
		}
		it := tally.Item{Title: m[2]}
		it.Status, it.RawStatus = tally.StatusOf(m[1])
		items = append(items, it)
	}
	return items, true
}

// jsonTodos reads a list written as JSON.
func jsonTodos(text []byte) ([]tally.Item, bool) {
	v, err := fastjson.ParseBytes(text)
	if err != nil {
		return nil, false
	}
	if t := v.Get("todos"); t != nil {
		v = t
	}
	arr, err := v.Array()
	if err != nil {
		return nil, false
	}
	for _, e := range arr {
		if e.Type() != fastjson.TypeObject || e.Get("status") == nil || e.Get("content") == nil && e.Get("description") == nil {
			return nil, false
		}
	}
	return rawTodos(v), true
}
