package tui

import (
	"strconv"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// largeList is the size past which a list is folded harder: completed runs
// become range summaries and planned items share rows in two columns.
const largeList = 10

// minColumn is the narrowest column of the two-column layout; below twice
// that, planned items take a row each.
const minColumn = 26

// foldItems lays out the items of an expanded list in w columns.
//
//   - A run of two or more completed items folds to one line: "… +N done",
//     or in a large list "✓ T001–T005 (5 complete)".
//   - The item in progress shows its title beside spin (the spinner frame,
//     or ◼ when the session is not working) and its activeForm below.
//   - In a large list, a run of two or more planned items (pending, not
//     blocked) is laid out in two columns, down then across, when w allows.
//
// Beside each line it returns the items the line shows, for a click to find.
func foldItems(items []tally.ItemView, w int, spin string, p *palette) ([]string, []ref) {
	return foldList(items, w, spin, p, len(items) > largeList, false)
}

// foldList is foldItems with the list's size given: large folds it as a
// large list; named names every item by its id, as a plan's tasks are.
func foldList(items []tally.ItemView, w int, spin string, p *palette, large, named bool) ([]string, []ref) {
	name := func(i int) string {
		if named {
			return taskName(items[i].ID, i)
		}
		return itemName(items, i, large)
	}
	var out []string
	var refs []ref
	add := func(r ref, lines ...string) {
		for range lines {
			refs = append(refs, r)
		}
		out = append(out, lines...)
	}
	for i := 0; i < len(items); {
		it := &items[i]
		j := i + 1
		switch m := markOf(it); {
		case m == termstyle.MarkDone:
			for j < len(items) && markOf(&items[j]) == termstyle.MarkDone {
				j++
			}
			if j-i >= 2 {
				add(noRef, doneRun(items, i, j, large, w, p))
				i = j
				continue
			}
		case m == termstyle.MarkPending && large && 2*minColumn+2 <= w:
			for j < len(items) && markOf(&items[j]) == termstyle.MarkPending {
				j++
			}
			if j-i >= 2 {
				rows := (j - i + 1) / 2
				for r, l := range columns(items, i, j, w, p, name) {
					right := -1
					if i+r+rows < j {
						right = i + r + rows
					}
					add(ref{item: i + r, right: right, split: (w-2)/2 + 2}, l)
				}
				i = j
				continue
			}
			j = i + 1
		case m == termstyle.MarkActive:
			add(ref{item: i, right: -1}, activeLines(it, name(i), w, spin, p)...)
			i = j
			continue
		}
		add(ref{item: i, right: -1}, itemLine(it, items, name(i), w, p))
		i = j
	}
	return out, refs
}

// ref is the items one drawn line shows: item (-1: none), and in a
// two-column line the item of the right column, which starts at split.
type ref struct{ item, right, split int }

var noRef = ref{item: -1, right: -1}

// at is the item shown at column x of the line.
func (r ref) at(x int) int {
	if r.right >= 0 && x >= r.split {
		return r.right
	}
	return r.item
}

// itemName is how a large list names an item: its id, or its position.
func itemName(items []tally.ItemView, i int, large bool) string {
	if !large {
		return ""
	}
	return taskName(items[i].ID, i)
}

// taskName names an item by its id ("#3" for a number, "T003" as it is),
// or by its position pos (from 0) when it has none.
func taskName(id string, pos int) string {
	id = oneLine(id)
	switch {
	case id == "":
		return "#" + strconv.Itoa(pos+1)
	case strings.Trim(id, "0123456789") == "":
		return "#" + id
	}
	return id
}

func doneRun(items []tally.ItemView, i, j int, large bool, w int, p *palette) string {
	n := j - i
	if !large {
		return cut(p.mark(termstyle.MarkDone)+" "+render(p.faint, "… +"+strconv.Itoa(n)+" done"), w)
	}
	text := itemName(items, i, true) + "–" + itemName(items, j-1, true) + " (" + strconv.Itoa(n) + " complete)"
	return cut(p.mark(termstyle.MarkDone)+" "+text, w)
}

func itemLine(it *tally.ItemView, list []tally.ItemView, name string, w int, p *palette) string {
	m := markOf(it)
	head := p.mark(m) + " "
	if name != "" {
		head += render(p.faint, name) + " "
	}
	title := oneLine(it.Title)
	if m == termstyle.MarkBlocked && len(it.BlockedBy) > 0 {
		by := "  blocked by " + oneLine(strings.Join(tally.TitlesOf(it.BlockedBy, list), ", "))
		room := w - width(head) - width(by)
		if room >= 12 {
			return head + fit(title, min(room, width(title))) + render(p.warn, by)
		}
	}
	if it.Status == tally.StatusUnknown && it.RawStatus != "" {
		title += " (" + oneLine(it.RawStatus) + ")"
	}
	return cut(head+title, w)
}

// activeLines is the item in progress: its title, then what the agent is
// doing for it (its activeForm) on a second line.
func activeLines(it *tally.ItemView, name string, w int, spin string, p *palette) []string {
	icon := p.mark(termstyle.MarkActive)
	if spin != "" {
		icon = render(p.active, spin)
	}
	head := icon + " "
	if name != "" {
		head += render(p.faint, name) + " "
	}
	out := []string{cut(head+render(p.bold, oneLine(it.Title)), w)}
	if af := oneLine(it.ActiveForm); af != "" && af != oneLine(it.Title) {
		out = append(out, cut("  "+render(p.active, af), w))
	}
	return out
}

// columns lays items[i:j] out in two columns, down then across, each
// named by name.
func columns(items []tally.ItemView, i, j, w int, p *palette, name func(int) string) []string {
	n := j - i
	rows := (n + 1) / 2
	colW := (w - 2) / 2
	out := make([]string, rows)
	for r := range rows {
		left := itemLine(&items[i+r], items, name(i+r), colW, p)
		line := fit(left, colW)
		if k := i + r + rows; k < j {
			line += "  " + itemLine(&items[k], items, name(k), colW, p)
		}
		out[r] = strings.TrimRight(line, " ")
	}
	return out
}
