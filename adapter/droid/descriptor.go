package droid

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "droid"

// Descriptor is Factory's Droid CLI as Tally knows it. Droid takes
// FACTORY_HOME_OVERRIDE as the home folder that holds .factory, as it does
// the user's home.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Factory Droid", Color: 166 /* dark orange */, Hue: 0,
	Homes: []adapter.Home{
		{What: "Factory Droid's .factory directory", Flag: "droid-home",
			From: []adapter.Place{{Var: "FACTORY_HOME_OVERRIDE", Path: ".factory"}, {Under: adapter.UnderHome, Path: ".factory"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
}
