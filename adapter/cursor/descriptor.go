package cursor

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "cursor"

// Descriptor is Cursor's agent (the CLI, cursor-agent, and the editor's
// agent, which write the same transcripts) as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Cursor", Color: 246 /* gray */, Hue: 238,
	Homes: []adapter.Home{
		{What: "Cursor's .cursor directory", Flag: "cursor-dir",
			From: []adapter.Place{{Under: adapter.UnderHome, Path: ".cursor"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Home: d.Get("")}) },
}
