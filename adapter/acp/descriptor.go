package acp

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "acp"

// Descriptor is the Agent Client Protocol as Tally knows it: a stream
// between two processes, with no home.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "ACP agents", Color: 135 /* purple */, Hue: 330,
	New: func(adapter.Dirs) tally.Adapter { return New() },
}
