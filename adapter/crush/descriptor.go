package crush

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "crush"

// Descriptor is Crush as Tally knows it. Crush keeps one database per
// project: by default the project Tally runs in, CRUSH_DATA_DIR, and every
// project listed in projects.json in Crush's global data directory (its
// index of projects since v0.25.0).
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Crush", Color: 205 /* pink */, Hue: 300,
	Homes: []adapter.Home{
		{What: "where Crush databases are: a project's .crush directory, or a directory above projects",
			Flag: "crush-dir", Every: true,
			From: []adapter.Place{{Under: adapter.UnderWork, Path: ".crush"}, {Var: "CRUSH_DATA_DIR"}}},
		// Crush's own rule for its global data directory (GlobalConfigData
		// in internal/config/load.go); its projects.json lists the projects.
		{Key: "global", What: "Crush's global data directory (its projects.json lists every project)",
			From: []adapter.Place{{Var: "CRUSH_GLOBAL_DATA"}, {Var: "XDG_DATA_HOME", Path: "crush"},
				{Under: adapter.UnderHome, Path: ".local/share/crush"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter {
		return New(Options{Roots: d.All(""), GlobalDir: d.Get("global")})
	},
}
