package hermes

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "hermes"

// Descriptor is Hermes as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Hermes", Color: 178 /* gold */, Hue: 275,
	Homes: []adapter.Home{
		{What: "Hermes' home directory", Flag: "hermes-home",
			From: []adapter.Place{{Var: "HERMES_HOME"}, {Under: adapter.UnderHome, Path: ".hermes"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
}
