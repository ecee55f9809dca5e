package tally

import "strings"

// Blocked says whether a session cannot go on, and why, in words a person
// acts on. It is the one rule of the blocked flag, which detection,
// FlagsAt and every surface take from here. A session is blocked only when
// the agent cannot go on:
//
//   - the agent said so: the newest progress marker of a task or step says
//     "blocked" (its reason, if any, is the why), or an open item's status
//     is blocked (a tracker task set blocked, its description the why);
//   - its current focus, the first item in progress, waits on an open item;
//   - nothing is in progress and every item left waits on an open item.
//
// An item waiting on another open item while the agent works on something
// else is order, not trouble: "Update README" after "Add unit test" is how
// a list says what comes next.
func Blocked(items []Item, markers []Marker) (why string, blocked bool) {
	if why, ok := markerBlocked(markers); ok {
		return why, true
	}
	for i := range items {
		it := &items[i]
		if it.Status == StatusBlocked {
			return said(it), true
		}
	}
	byID := itemsByID(items)
	for i := range items {
		if it := &items[i]; it.Status == StatusInProgress {
			if b := openBlocker(it, byID); b != nil {
				return waits(it, b), true
			}
			return "", false // the focus can go on
		}
	}
	first := -1
	for i := range items {
		it := &items[i]
		if !it.Status.Open() {
			continue
		}
		if openBlocker(it, byID) == nil {
			return "", false // something left that nothing holds up
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return "", false
	}
	it := &items[first]
	return "every item left waits: " + waits(it, openBlocker(it, byID)), true
}

// markerBlocked: the newest marker of some task or step says blocked.
func markerBlocked(markers []Marker) (string, bool) {
	latest := make(map[[2]string]int, len(markers))
	for i, m := range markers {
		latest[[2]string{m.Task, m.Step}] = i
	}
	for i, m := range markers {
		if m.Verb != "blocked" || latest[[2]string{m.Task, m.Step}] != i {
			continue
		}
		where := m.Task
		if m.Step != "" {
			where += "." + m.Step
		}
		if m.Reason != "" {
			return where + " blocked: " + m.Reason, true
		}
		return where + " blocked", true
	}
	return "", false
}

// said is the why of an item the agent declared blocked: its title and,
// when it gave one, its description.
func said(it *Item) string {
	if d := strings.TrimSpace(it.Description); d != "" {
		return it.Title + ": " + firstLine(d)
	}
	return it.Title + " is blocked"
}

func waits(it, on *Item) string { return it.Title + " waits on " + on.Title }

func itemsByID(items []Item) map[string]*Item {
	byID := make(map[string]*Item, len(items))
	for i := range items {
		if id := items[i].ID; id != "" {
			byID[id] = &items[i]
		}
	}
	return byID
}

// openBlocker is the first item it waits on that still has work left; nil
// if none. A blocker id not in the list (deleted, never seen) holds up
// nothing.
func openBlocker(it *Item, byID map[string]*Item) *Item {
	for _, id := range it.BlockedBy {
		if b := byID[id]; b != nil && b.Status.Open() {
			return b
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// TitlesOf names the items ids stand for in list by their titles, as a
// person reads a blocker or what an item blocks ("Add unit test", not
// "33a9ea"); an id the list does not hold stays "#id". Ids are for
// programs: --json keeps them.
func TitlesOf(ids []string, list []ItemView) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "#" + id
		for j := range list {
			if list[j].ID == id && HasText(&list[j].Item) {
				out[i] = list[j].Title
				break
			}
		}
	}
	return out
}
