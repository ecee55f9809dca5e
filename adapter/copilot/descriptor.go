package copilot

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "copilot"

// Descriptor is GitHub Copilot CLI as Tally knows it: its home, found as
// Copilot finds it (--config-dir, else COPILOT_HOME, else ~/.copilot).
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "GitHub Copilot CLI", Color: 141 /* light purple */, Hue: 262,
	Homes: []adapter.Home{
		{What: "GitHub Copilot CLI's home", Flag: "copilot-home",
			From: []adapter.Place{{Var: "COPILOT_HOME"}, {Under: adapter.UnderHome, Path: ".copilot"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
}
