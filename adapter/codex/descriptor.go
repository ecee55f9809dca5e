package codex

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/setup"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "codex"

// Descriptor is Codex as Tally knows it. Its hooks take and give Claude
// Code's JSON.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Codex", Color: 42 /* green */, Hue: 152,
	Homes: []adapter.Home{
		{What: "Codex's home directory", Flag: "codex-home",
			From: []adapter.Place{{Var: "CODEX_HOME"}, {Under: adapter.UnderHome, Path: ".codex"}}},
	},
	New:       func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
	EventType: "openai-codex",
	Hooks: &hook.Spec{
		Format:       hook.ClaudeFormat{},
		OwnReminders: true,
	},
	Setup: func(d adapter.Dirs) setup.Target { return setup.Codex(d.Get("")) },
}
