package goose

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "goose"

// Descriptor is Goose as Tally knows it. Goose finds its data folder as
// its crates/goose/src/config/paths.rs does: $GOOSE_PATH_ROOT/data when
// that is set, else the XDG data folder's goose.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Goose", Color: 148 /* yellow green */, Hue: 100,
	Homes: []adapter.Home{
		{What: "Goose's data directory (sessions/sessions.db inside)", Flag: "goose-dir", From: []adapter.Place{
			{Var: "GOOSE_PATH_ROOT", Path: "data"},
			{Var: "XDG_DATA_HOME", Path: "goose"},
			{Under: adapter.UnderHome, Path: ".local/share/goose"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{DataDir: d.Get("")}) },
}
