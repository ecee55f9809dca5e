package opencode

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "opencode"

// Descriptor is OpenCode as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "OpenCode", Color: 252 /* light gray */, Hue: 185,
	Homes: []adapter.Home{
		{What: "OpenCode's data directory", Flag: "opencode-dir", From: []adapter.Place{
			{Var: "XDG_DATA_HOME", Path: "opencode"}, {Under: adapter.UnderHome, Path: ".local/share/opencode"}}},
		// The database, as $OPENCODE_DB gives it (Options.DB).
		{Key: "db", What: "database", From: []adapter.Place{{Var: "OPENCODE_DB"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{DataDir: d.Get(""), DB: d.Get("db")}) },
}
