package hook

// Spec is what answering one agent's hooks takes besides the rules: its
// wire format and the little that differs from agent to agent. An agent's
// descriptor (package adapter) holds it; an agent without one has no
// hooks Tally answers.
type Spec struct {
	// Format reads the agent's calls and writes its answers.
	Format Format
	// SessionEnv is the variable in which the agent tells the MCP servers
	// it starts which session they serve; "" if it does not. With it,
	// `tally mcp` and the hooks agree on the session's Tally list
	// (SessionList).
	SessionEnv string
	// OwnReminders: the agent does not remind itself of its own list, so
	// the hooks do (Options.OwnReminders).
	OwnReminders bool
	// ResumeLater: the agent writes a resumed session's record back only
	// after its SessionStart hooks ran (Options.ResumeLater).
	ResumeLater bool
}
