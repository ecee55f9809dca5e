package hook

import (
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// SessionList names the Tally list of an agent's session: the list
// `tally mcp` uses when the agent starts it for that session and a call
// names no list. Claude Code passes its session id to the MCP servers it
// starts (CLAUDE_CODE_SESSION_ID) and to its hooks (session_id), so the
// server and the hooks agree on the list without being told. Characters a
// list name cannot hold are dropped; a name too long is cut.
func SessionList(agent tally.Agent, session string) string {
	var b strings.Builder
	b.WriteString(string(agent))
	b.WriteByte('-')
	for _, r := range session {
		if b.Len() == tasks.MaxName {
			break
		}
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
