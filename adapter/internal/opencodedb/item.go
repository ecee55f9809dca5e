package opencodedb

import "github.com/tallyhq/tally"

// statusWords are the statuses todowrite documents
// (packages/opencode/src/tool/todo.ts). The field is a free string; any
// other word is kept as unknown with the word itself, never guessed.
var statusWords = map[string]tally.Status{
	"pending":     tally.StatusPending,
	"in_progress": tally.StatusInProgress,
	"completed":   tally.StatusCompleted,
	"cancelled":   tally.StatusCancelled,
}

// Item is a todo row as OpenCode (and its forks) write it.
func Item(id, content, status, priority string) tally.Item {
	it := tally.Item{ID: id, Title: content, Priority: priority}
	if s, ok := statusWords[status]; ok {
		it.Status = s
	} else {
		it.Status, it.RawStatus = tally.StatusUnknown, status
	}
	return it
}
