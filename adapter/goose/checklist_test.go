package goose

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

func TestChecklist(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []tally.Item
	}{
		{"Goose's own template", "- [x] Requirement 1\n- [ ] Task\n  - [ ] Sub-task\n", []tally.Item{
			item("Requirement 1", tally.StatusCompleted, "", false),
			item("Task", tally.StatusPending, "", true),
			item("Sub-task", tally.StatusPending, "", true)}},
		{"every bullet, CRLF and tabs", "* [X] a\r\n+ [ ]\tb\r\n10) [-] c\n\t- [/] d", []tally.Item{
			item("a", tally.StatusCompleted, "", false),
			item("b", tally.StatusPending, "", true),
			item("c", tally.StatusInProgress, "", false),
			item("d", tally.StatusInProgress, "", false)}},
		{"a mark Tally does not know keeps its word", "- [>] later", []tally.Item{item("later", tally.StatusUnknown, "[>]", false)}},
		{"notes only: no items", "Remember: the API is flaky.\n# Plan\n- a bullet without a box", nil},
		{"not boxes", "- [x]\n- [link](x)\n-[ ] tight\n- [xx] two\n- [x]joined\n[ ] bare", nil},
		{"a fenced block is not the list", "~~~\n- [ ] no\n~~~\n- [ ] yes\n```md\n- [x] no\n```", []tally.Item{item("yes", tally.StatusPending, "", true)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Checklist(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Checklist(%q)\n got %+v\nwant %+v", c.text, got, c.want)
			}
		})
	}
}

// TestChecklist_Bounded: a todo of any size gives at most maxItems items.
func TestChecklist_Bounded(t *testing.T) {
	if got := len(Checklist(strings.Repeat("- [ ] again\n", maxItems+10))); got != maxItems {
		t.Errorf("%d items, want %d", got, maxItems)
	}
}

// FuzzChecklist: any todo text is read without panicking, every item has
// a title and a status, and an unknown status keeps its mark.
func FuzzChecklist(f *testing.F) {
	for _, s := range []string{"- [x] a\n- [ ] b\n  - [~] c", "```\n- [ ] x\n", "1. [é] ü", "- [", "- []", "- [\xff] x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		items := Checklist(text)
		if len(items) > maxItems {
			t.Fatalf("%d items", len(items))
		}
		for _, it := range items {
			if it.Title == "" || it.Title != strings.TrimSpace(it.Title) {
				t.Errorf("title %q", it.Title)
			}
			if it.Status == tally.StatusUnknown && it.RawStatus == "" {
				t.Errorf("unknown status without its mark: %+v", it)
			}
		}
	})
}

// FuzzTodoState: any todo.v0 value is read or refused with an error,
// never a panic.
func FuzzTodoState(f *testing.F) {
	for _, s := range []string{`{"content":"- [x] a"}`, `{"content":null}`, `"text"`, `{"content":"\ud800"}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		items, _, err := todoItems(raw)
		if err != nil && items != nil {
			t.Errorf("items with an error: %v", err)
		}
	})
}
