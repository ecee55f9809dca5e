package tally

// ListTools is what a session's log says of the tools its agent had for
// keeping a list (TodoWrite, Task*, update_plan, write_todos, …). An agent
// offered none keeps no list however long it works; surfaces say so, and
// how to give it one, rather than "no todo list yet".
type ListTools uint8

const (
	// ListToolsUnknown: the log does not say.
	ListToolsUnknown ListTools = iota
	// ListToolsOffered: the log shows a list tool offered, or used.
	ListToolsOffered
	// ListToolsNone: the log shows the agent was offered none.
	ListToolsNone
)

var listToolsNames = [...]string{ListToolsUnknown: "", ListToolsOffered: "offered", ListToolsNone: "none"}

func (t ListTools) String() string {
	if int(t) < len(listToolsNames) {
		return listToolsNames[t]
	}
	return ""
}

func (t ListTools) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

func (t *ListTools) UnmarshalText(b []byte) error {
	switch string(b) {
	case "offered":
		*t = ListToolsOffered
	case "none":
		*t = ListToolsNone
	default:
		*t = ListToolsUnknown
	}
	return nil
}

// mergeTools is what two facts about one session say together: a tool
// offered or used anywhere wins over a log that showed none.
func mergeTools(a, b ListTools) ListTools {
	switch {
	case a == ListToolsOffered || b == ListToolsOffered:
		return ListToolsOffered
	case a == ListToolsNone || b == ListToolsNone:
		return ListToolsNone
	}
	return ListToolsUnknown
}
