package cline

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "cline"

// Descriptor is the Cline CLI as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Cline", Color: 75 /* sky blue */, Hue: 196,
	Homes: []adapter.Home{
		// Cline's rule: CLINE_DB_DATA_DIR, else <data>/db, the data folder
		// being CLINE_DATA_DIR, else <CLINE_DIR or ~/.cline>/data.
		{What: "Cline's database folder (data/db)", Flag: "cline-db-dir", From: []adapter.Place{
			{Var: "CLINE_DB_DATA_DIR"}, {Var: "CLINE_DATA_DIR", Path: "db"}, {Var: "CLINE_DIR", Path: "data/db"},
			{Under: adapter.UnderHome, Path: ".cline/data/db"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{DBDir: d.Get("")}) },
}
