package goose

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tallyhq/tally"
)

// maxTodo bounds the todo read: Goose refuses a todo over 50,000
// characters (GOOSE_TODO_MAX_CHARS), so a megabyte is far more than one.
const maxTodo = 1 << 20

// maxItems bounds the items taken from one todo.
const maxItems = 500

// todoItems reads the todo.v0 state Goose's todo_write saved, {"content":
// text}: the list is the text's checklist (Checklist). repair is
// tally.RepairNotUTF8 when the text was not UTF-8.
func todoItems(raw []byte) (items []tally.Item, repair string, err error) {
	if len(raw) > maxTodo {
		return nil, "", errors.New("is over 1 MiB")
	}
	var st struct {
		Content *string `json:"content"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, "", fmt.Errorf("is not Goose's todo state (%v)", err)
	}
	if st.Content == nil {
		return nil, "", errors.New("has no content")
	}
	if !utf8.Valid(raw) {
		repair = tally.RepairNotUTF8
	}
	return Checklist(*st.Content), repair, nil
}

// Checklist reads the Markdown checklist in a todo Goose keeps, which its
// todo extension asks the model to write as "- [x] Requirement 1",
// "- [ ] Task", a sub-task indented below its task. Every box of a list
// item ("-", "*", "+" or "1." before it), nested or not, is an item, in
// the order written: "[x]" completed; "[ ]" pending, and Lossy, as a box
// cannot say the step is under way; "[-]", "[~]" and "[/]", which models
// write for one that is, in progress; any other mark unknown, with the
// mark as its raw status. The rest of the text (notes, headings, a box
// inside a fenced code block) is not the list.
func Checklist(text string) []tally.Item {
	var items []tally.Item
	fence := ""
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if f := fenceOf(line); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(line, fence):
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		it, ok := checkItem(line)
		if !ok {
			continue
		}
		items = append(items, it)
		if len(items) == maxItems {
			break
		}
	}
	return items
}

// fenceOf is the fence a line opens or closes (``` or ~~~), "" for none.
func fenceOf(line string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, f) {
			return f
		}
	}
	return ""
}

// checkItem reads one line, trimmed, as a checklist item.
func checkItem(line string) (tally.Item, bool) {
	rest, ok := bullet(line)
	if !ok || len(rest) < 3 || rest[0] != '[' {
		return tally.Item{}, false
	}
	mark, size := utf8.DecodeRuneInString(rest[1:])
	if len(rest) < 2+size || rest[1+size] != ']' {
		return tally.Item{}, false
	}
	after := rest[2+size:]
	if after != "" && after[0] != ' ' && after[0] != '\t' {
		return tally.Item{}, false // "[x]y" is a link's text, not a box
	}
	title := strings.TrimSpace(after)
	if title == "" {
		return tally.Item{}, false
	}
	it := tally.Item{Title: title, Source: tally.SourceTodo}
	switch mark {
	case 'x', 'X':
		it.Status = tally.StatusCompleted
	case ' ':
		it.Status, it.Lossy = tally.StatusPending, true
	case '-', '~', '/':
		it.Status = tally.StatusInProgress
	default:
		it.Status, it.RawStatus = tally.StatusUnknown, "["+string(mark)+"]"
	}
	return it, true
}

// bullet is what follows a list item's marker ("- ", "* ", "+ ", "1. ",
// "1) "); ok is false for a line that is no list item.
func bullet(line string) (string, bool) {
	if len(line) >= 2 && strings.ContainsRune("-*+", rune(line[0])) && line[1] == ' ' {
		return strings.TrimLeft(line[2:], " "), true
	}
	n := 0
	for n < len(line) && n < 9 && line[n] >= '0' && line[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(line) && (line[n] == '.' || line[n] == ')') && line[n+1] == ' ' {
		return strings.TrimLeft(line[n+2:], " "), true
	}
	return "", false
}
