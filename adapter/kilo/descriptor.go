package kilo

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "kilo"

// Descriptor is Kilo Code's CLI as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Kilo Code", Color: 226 /* yellow */, Hue: 62,
	Homes: []adapter.Home{
		{What: "Kilo Code's data directory", Flag: "kilo-dir", From: []adapter.Place{
			{Var: "XDG_DATA_HOME", Path: "kilo"}, {Under: adapter.UnderHome, Path: ".local/share/kilo"}}},
		// The database, as $KILO_DB gives it (Options.DB).
		{Key: "db", What: "database", From: []adapter.Place{{Var: "KILO_DB"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{DataDir: d.Get(""), DB: d.Get("db")}) },
}
