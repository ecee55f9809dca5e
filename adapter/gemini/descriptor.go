package gemini

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/setup"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "gemini"

// Descriptor is Gemini CLI as Tally knows it. It takes GEMINI_CLI_HOME as
// the home folder that holds .gemini, not as .gemini itself.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Gemini CLI", Color: 33 /* blue */, Hue: 212,
	Homes: []adapter.Home{
		{What: "Gemini CLI's .gemini directory", Flag: "gemini-home",
			From: []adapter.Place{{Var: "GEMINI_CLI_HOME", Path: ".gemini"}, {Under: adapter.UnderHome, Path: ".gemini"}}},
	},
	New:       func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
	EventType: "google-gemini",
	Hooks: &hook.Spec{
		Format:       hook.GeminiFormat{},
		OwnReminders: true,
		ResumeLater:  true,
	},
	Setup: func(d adapter.Dirs) setup.Target { return setup.Gemini(d.Get("")) },
}
