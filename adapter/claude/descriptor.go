package claude

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/setup"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "claude"

// Descriptor is Claude Code as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Claude Code", Color: 208 /* orange */, Hue: 24,
	Homes: []adapter.Home{
		{What: "Claude Code's config directory", Flag: "claude-dir",
			From: []adapter.Place{{Var: "CLAUDE_CONFIG_DIR"}, {Under: adapter.UnderHome, Path: ".claude"}}},
		// Its user config (.claude.json, where its user MCP servers are):
		// in the config directory when one is named, else in the home
		// folder.
		{Key: "userconfig", From: []adapter.Place{
			{Flag: "claude-dir", Path: ".claude.json"}, {Var: "CLAUDE_CONFIG_DIR", Path: ".claude.json"},
			{Under: adapter.UnderHome, Path: ".claude.json"}}},
	},
	New:       func(d adapter.Dirs) tally.Adapter { return New(Options{ConfigDir: d.Get("")}) },
	EventType: "claude-code",
	Hooks: &hook.Spec{
		Format:     hook.ClaudeFormat{},
		SessionEnv: "CLAUDE_CODE_SESSION_ID",
	},
	Setup: func(d adapter.Dirs) setup.Target { return setup.Claude(d.Get(""), d.Get("userconfig")) },
}
