package tally

// Agent names the program that wrote a log: "claude", "codex", "gemini", …
// It is a named string rather than a closed enum because a session from an
// agent this build does not know must still be shown under its own name.
// Each adapter package declares its agent's (claude.Agent, …) with the
// rest of what Tally knows of it (its adapter.Descriptor).
type Agent string

// AgentTally is the agent of Tally's own task lists (tally mcp): a
// session of the store, not of any agent's files.
const AgentTally Agent = "tally"

func (a Agent) String() string { return string(a) }

// Source says which mechanism of the agent produced an item. It decides how
// later events treat the item: a snapshot replaces all items of its source,
// a task event edits one task.
type Source uint8

const (
	// SourceTodo: a snapshot tool (TodoWrite, write_todos, update_plan, …):
	// every call is the whole list.
	SourceTodo Source = iota
	// SourceTask: an incremental tool (TaskCreate/TaskUpdate, Hermes merge):
	// items have ids and are edited one at a time.
	SourceTask
)

var sourceNames = [...]string{SourceTodo: "todo", SourceTask: "task"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "unknown"
}

func (s Source) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Source) UnmarshalText(b []byte) error {
	switch string(b) {
	case "todo":
		*s = SourceTodo
	case "task":
		*s = SourceTask
	default:
		return errorf(CodeInvalid, "Source.UnmarshalText", "unknown source %q", b)
	}
	return nil
}
