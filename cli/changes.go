package cli

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// sessionChanges names, in words, each item of next whose state differs
// from prev: "✓ Write tests (completed)", "◻ Add docs (added)",
// "− Old step (removed)". Sub-agents' items say whose they are; the
// runtime's tool calls (tally.RuntimeList) are no list and are not named.
func sessionChanges(prev, next *tally.Session) []string {
	out := itemChanges(prev.Items, next.Items, "")
	subs := make(map[string][]tally.ItemView, len(prev.SubAgents))
	for _, sub := range prev.SubAgents {
		subs[sub.ID] = sub.Items
	}
	for _, sub := range next.SubAgents {
		if sub.ID == tally.RuntimeList {
			continue // the runtime's calls, not a list anyone keeps: the line's step says what runs
		}
		out = append(out, itemChanges(subs[sub.ID], sub.Items, subAgentPrefix(&sub))...)
	}
	return out
}

// subAgentPrefix names a sub-agent before its items' changes: by its name
// when its log gives one, else by its id, long hex, of which a few
// characters tell it from its siblings.
func subAgentPrefix(sub *tally.SubAgentList) string {
	if sub.Name != "" {
		return sub.Name + ": "
	}
	const short = 7
	id := sub.ID
	if len(id) > short {
		id = id[:short]
	}
	return "sub-agent " + id + ": "
}

// itemChanges compares two versions of one list. An item is the same item
// in both when its id matches, or, for items without ids (snapshot lists),
// when its title does; its change is a change of mark (status, or blocked).
func itemChanges(prev, next []tally.ItemView, prefix string) []string {
	var out []string
	matched := make([]bool, len(prev))
	for i := range next {
		it := &next[i]
		j := sameItem(prev, matched, it)
		switch {
		case j < 0:
			word := "added"
			if termstyle.MarkOf(it) != termstyle.MarkPending {
				word += ", " + statusText(it)
			}
			out = append(out, prefix+changeText(it, word))
		case termstyle.MarkOf(&prev[j]) != termstyle.MarkOf(it):
			out = append(out, prefix+changeText(it, statusText(it)))
		}
		if j >= 0 {
			matched[j] = true
		}
	}
	for j := range prev {
		if !matched[j] {
			out = append(out, prefix+"− "+oneLine(prev[j].Title)+" (removed)")
		}
	}
	return out
}

// sameItem is the index in prev of the item it is a later version of, or
// -1 if it is new.
func sameItem(prev []tally.ItemView, matched []bool, it *tally.ItemView) int {
	for j := range prev {
		if matched[j] {
			continue
		}
		if it.ID != "" && prev[j].ID == it.ID {
			return j
		}
		if it.ID == "" && prev[j].ID == "" && prev[j].Title == it.Title {
			return j
		}
	}
	return -1
}

func changeText(it *tally.ItemView, word string) string {
	return termstyle.MarkOf(it).Icon() + " " + oneLine(it.Title) + " (" + word + ")"
}

// statusText is an item's state in words: the status, "blocked" when an
// open blocker holds a pending item, or the agent's own word.
func statusText(it *tally.ItemView) string {
	switch termstyle.MarkOf(it) {
	case termstyle.MarkBlocked:
		return "blocked"
	case termstyle.MarkActive:
		return "in progress"
	case termstyle.MarkPending, termstyle.MarkDone, termstyle.MarkStopped, termstyle.MarkUnknown:
	}
	return it.StatusWord()
}
