package gemini

import (
	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// maxTodos bounds the items read from one write_todos call.
const maxTodos = 1000

// todoItems reads write_todos' todos: [{description, status}]. Gemini CLI
// statuses are pending, in_progress, completed, cancelled and blocked; a
// word Tally does not know is kept as RawStatus with StatusUnknown, so it
// shows as the agent wrote it rather than as a silent "pending".
func todoItems(v *fastjson.Value) ([]tally.Item, error) {
	arr, err := v.Array()
	if err != nil {
		return nil, errText("todos is not an array")
	}
	if len(arr) > maxTodos {
		return nil, errText("todos holds more than 1000 items")
	}
	items := make([]tally.Item, 0, len(arr))
	for _, t := range arr {
		if t.Type() != fastjson.TypeObject {
			return nil, errText("a todo is not an object")
		}
		desc, err := str(t, "description")
		if err != nil {
			return nil, err
		}
		word, err := str(t, "status")
		if err != nil {
			return nil, err
		}
		items = append(items, withStatus(tally.Item{Title: desc}, word))
	}
	return items, nil
}

// withStatus sets an item's status from the agent's word.
func withStatus(it tally.Item, word string) tally.Item {
	it.Status, it.RawStatus = tally.StatusOf(word)
	return it
}
