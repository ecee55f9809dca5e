package tally

// ItemView is an Item with the facts derived from its list.
type ItemView struct {
	Item
	// Blocked: the agent said so (StatusBlocked) or a blocker is still open.
	Blocked bool `json:"blocked"`
}

// Progress is the X of Y of a list, derived from its items.
type Progress struct {
	// Done counts completed items.
	Done int `json:"done"`
	// Total counts all items but cancelled ones: a cancelled item is not
	// work left, and not work done either.
	Total      int `json:"total"`
	InProgress int `json:"inProgress"`
	Blocked    int `json:"blocked"`
	// Current is the step being worked on: the first in_progress item.
	Current *ItemView `json:"current,omitempty"`
}

// DeriveBlocked derives Blocked for every item of items. A blocker id that
// is not in the list (deleted, or never seen) blocks nothing.
func DeriveBlocked(items []Item) []ItemView {
	open := make(map[string]bool, len(items))
	for _, it := range items {
		if it.ID != "" {
			open[it.ID] = it.Status.Open()
		}
	}
	out := make([]ItemView, len(items))
	for i, it := range items {
		v := ItemView{Item: it, Blocked: it.Status == StatusBlocked}
		if it.Status.Open() && it.Status != StatusInProgress {
			for _, b := range it.BlockedBy {
				if open[b] {
					v.Blocked = true
					break
				}
			}
		}
		out[i] = v
	}
	return out
}

// ProgressOf derives the progress of a viewed list.
func ProgressOf(items []ItemView) Progress {
	var p Progress
	for i := range items {
		it := &items[i]
		switch it.Status {
		case StatusCancelled:
			continue
		case StatusCompleted:
			p.Done++
		case StatusInProgress:
			p.InProgress++
			if p.Current == nil {
				cur := *it
				p.Current = &cur
			}
		case StatusUnknown, StatusPending, StatusFailed, StatusBlocked:
		}
		if it.Blocked {
			p.Blocked++
		}
		p.Total++
	}
	return p
}
