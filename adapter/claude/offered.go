package claude

import (
	"strings"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// Claude Code 2.1.233 and later offer TodoWrite and the Task tools to the
// newest models only when CLAUDE_CODE_ENABLE_TODO_TOOLS=1; such a session
// keeps no list however long it works. Two lines near a log's start say
// which tools it had:
//   - stream-json's first line, {"type":"system","subtype":"init",
//     "tools":[…]}, lists every tool;
//   - a transcript's attachment {"type":"deferred_tools_delta",
//     "addedNames":[…]} lists the deferred tools, and 2.1.x defers its list
//     tools whenever it offers them.
//
// A list with no list tool in it says the session had none; one with a
// list tool, or any later use of one, says it had one.

// toolsLines is how many of a log's first lines are looked at for those
// lists: they come before the first request to the model.
const toolsLines = 64

var initPrefix = []byte(`{"type":"system","subtype":"init"`)

// noListToolsHint is how to give Claude Code a list tool.
const noListToolsHint = "Claude Code offers TodoWrite and the Task tools to its newest models only with " +
	"CLAUDE_CODE_ENABLE_TODO_TOOLS=1 (`tally setup claude --enable-todo-tools` sets it); " +
	"or give it Tally's task tools with `tally mcp` (`tally setup claude` registers it)."

// offeredTools reads a list of tools the session was offered.
func (d *Decoder) offeredTools(l line) {
	var names []*fastjson.Value
	switch {
	case string(l.typ) == "system" && string(l.v.GetStringBytes("subtype")) == "init":
		names = l.v.GetArray("tools")
	case string(l.v.GetStringBytes("attachment", "type")) == "deferred_tools_delta":
		names = l.v.GetArray("attachment", "addedNames")
	default:
		return
	}
	t := tally.ListToolsNone
	for _, n := range names {
		if isListTool(string(n.GetStringBytes())) {
			t = tally.ListToolsOffered
			break
		}
	}
	m := tally.Meta{ListTools: t}
	if t == tally.ListToolsNone {
		m.ListToolsHint = noListToolsHint
	}
	d.add(tally.Event{Kind: tally.EventMeta, Meta: m})
}

// isListTool tells a tool that keeps a list: TodoWrite, or TaskCreate (the
// Task tools come together), Claude Code's own or served over MCP
// (mcp__<server>__TaskCreate).
func isListTool(name string) bool {
	if strings.HasPrefix(name, "mcp__") {
		if i := strings.LastIndex(name, "__"); i > len("mcp_") {
			name = name[i+2:]
		}
	}
	return name == string(toolTodoWrite) || name == string(toolTaskCreate)
}
