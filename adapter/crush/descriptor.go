package crush

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "crush"

// Descriptor is Crush as Tally knows it. Crush keeps one database per
// project and no list of projects: by default the project Tally runs in,
// and CRUSH_DATA_DIR.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Crush", Color: 205 /* pink */, Hue: 300,
	Homes: []adapter.Home{
		{What: "where Crush databases are: a project's .crush directory, or a directory above projects",
			Flag: "crush-dir", Every: true,
			From: []adapter.Place{{Under: adapter.UnderWork, Path: ".crush"}, {Var: "CRUSH_DATA_DIR"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Roots: d.All("")}) },
}
