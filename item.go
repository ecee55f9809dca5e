package tally

// Item is one entry of a todo list or task list, whatever agent wrote it.
type Item struct {
	// ID is the agent's id for the item when it has one (Claude Task ids,
	// legacy TodoWrite ids, Hermes ids). Snapshot items usually have none:
	// their identity is position plus text.
	ID          string `json:"id,omitempty"`
	Title       string `json:"title"`
	ActiveForm  string `json:"activeForm,omitempty"`
	Description string `json:"description,omitempty"`
	Status      Status `json:"status"`
	// RawStatus keeps the agent's own word when it mapped to StatusUnknown.
	RawStatus string   `json:"rawStatus,omitempty"`
	Priority  string   `json:"priority,omitempty"`
	Owner     string   `json:"owner,omitempty"`
	Blocks    []string `json:"blocks,omitempty"`
	BlockedBy []string `json:"blockedBy,omitempty"`
	Source    Source   `json:"source"`
	// Lossy marks a status the agent's format could not state fully: codex
	// exec's boolean cannot tell in_progress from pending.
	Lossy bool `json:"lossy,omitempty"`
}

// StatusWord is the word to show for the item's status: the agent's own when
// Tally did not know it.
func (it *Item) StatusWord() string {
	if it.Status == StatusUnknown && it.RawStatus != "" {
		return it.RawStatus
	}
	return it.Status.String()
}

// Label is the text to show for the item: its activeForm while it is the
// step being worked on, its title otherwise.
func (it *Item) Label() string {
	if it.Status == StatusInProgress && it.ActiveForm != "" {
		return it.ActiveForm
	}
	return it.Title
}

func addUnique(set []string, add ...string) []string {
next:
	for _, a := range add {
		for _, s := range set {
			if s == a {
				continue next
			}
		}
		set = append(set, a)
	}
	return set
}
