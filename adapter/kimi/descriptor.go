package kimi

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "kimi"

// Descriptor is Moonshot's Kimi Code CLI as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Kimi CLI", Color: 63 /* slate blue */, Hue: 252,
	Homes: []adapter.Home{
		{What: "Kimi CLI's share directory", Flag: "kimi-dir",
			From: []adapter.Place{{Var: "KIMI_SHARE_DIR"}, {Under: adapter.UnderHome, Path: ".kimi"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
}
