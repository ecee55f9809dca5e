package normalize

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/agents"
)

// Event types written by Run.
const (
	TypeTodoList = "todo_list"
	TypeMarker   = "progress_marker"
)

// TodoStatus is the event's closed vocabulary: these four words and no
// other.
type TodoStatus string

const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
	TodoCancelled  TodoStatus = "cancelled"
)

// TodoStatusOf maps Tally's status onto the four words. Consumers of the
// event accept nothing else, so the three Tally has beyond them become
// the nearest word by what a reader must do about the item, and the item's
// TallyStatus keeps the truth:
//   - failed → cancelled: over, and not done;
//   - blocked → pending: still to do, not being worked on;
//   - unknown (an agent's word Tally does not know) → pending: shown as
//     work left rather than hidden, with the agent's word in TallyStatus.
func TodoStatusOf(s tally.Status) TodoStatus {
	switch s {
	case tally.StatusInProgress:
		return TodoInProgress
	case tally.StatusCompleted:
		return TodoCompleted
	case tally.StatusCancelled, tally.StatusFailed:
		return TodoCancelled
	case tally.StatusUnknown, tally.StatusPending, tally.StatusBlocked:
	}
	return TodoPending
}

// TodoList is the todo_list event. The first seven fields are the unified
// event's; the rest are Tally's.
type TodoList struct {
	Type      string     `json:"type"`
	EventID   string     `json:"eventId"`
	AgentID   string     `json:"agentId"`
	AgentType string     `json:"agentType"`
	Timestamp int64      `json:"timestamp"` // Unix milliseconds
	TodoID    string     `json:"todoId"`
	Items     []TodoItem `json:"items"`

	SessionID string `json:"sessionId,omitempty"`
	// List is the list within the session: "" for the main agent, a
	// sub-agent id, or tally.RuntimeList for tool calls.
	List string `json:"list"`
	// Name is a sub-agent's own name (its description) where the stream
	// says it, for readers to show instead of its id.
	Name     string       `json:"name,omitempty"`
	Progress TodoProgress `json:"progress"`
	// Line is the 1-based input line that made this version of the list.
	Line int64 `json:"line"`
}

// TodoItem is the unified {text, status} with what Tally knows besides.
type TodoItem struct {
	Text   string     `json:"text"`
	Status TodoStatus `json:"status"`
	// TallyStatus is set when Status had to approximate: "failed",
	// "blocked", or the agent's own word when Tally did not know it.
	TallyStatus string   `json:"tallyStatus,omitempty"`
	ID          string   `json:"id,omitempty"`
	ActiveForm  string   `json:"activeForm,omitempty"`
	Priority    string   `json:"priority,omitempty"`
	Owner       string   `json:"owner,omitempty"`
	Blocked     bool     `json:"blocked,omitempty"`
	BlockedBy   []string `json:"blockedBy,omitempty"`
	// Lossy: the agent's format could not say in_progress from pending.
	Lossy bool `json:"lossy,omitempty"`
}

// TodoProgress is the todo_list event's X of Y: tally.Progress without
// its current item.
type TodoProgress struct {
	Done       int `json:"done"`
	Total      int `json:"total"`
	InProgress int `json:"inProgress"`
	Blocked    int `json:"blocked"`
}

// Marker is a progress marker found in the agent's text.
type Marker struct {
	Type      string `json:"type"`
	EventID   string `json:"eventId"`
	AgentID   string `json:"agentId"`
	AgentType string `json:"agentType"`
	Timestamp int64  `json:"timestamp"`
	SessionID string `json:"sessionId,omitempty"`
	Line      int64  `json:"line"`
	tally.Marker
}

// AgentType is the event's agentType for a: the name its descriptor gives
// it in unified events, else Tally's name.
func AgentType(a tally.Agent) string {
	if d := agents.Find(a); d != nil {
		return d.EventName()
	}
	return string(a)
}

// AgentID names who owns a list: the agent for its main list, agent/list
// for a sub-agent's (or the runtime's) list.
func AgentID(a tally.Agent, list string) string {
	if list == "" {
		return string(a)
	}
	return string(a) + "/" + list
}

func items(views []tally.ItemView) []TodoItem {
	out := make([]TodoItem, 0, len(views))
	for _, v := range views {
		// Every item has text: the fold skips those without (tally.HasText).
		it := TodoItem{
			Text: v.Title, Status: TodoStatusOf(v.Status), ID: v.ID, ActiveForm: v.ActiveForm,
			Priority: v.Priority, Owner: v.Owner, Blocked: v.Blocked, BlockedBy: v.BlockedBy, Lossy: v.Lossy,
		}
		if v.Status.String() != string(it.Status) {
			it.TallyStatus = v.StatusWord()
		}
		out = append(out, it)
	}
	return out
}
