package openhands

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "openhands"

// Descriptor is the OpenHands CLI (on the OpenHands software agent SDK) as
// Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "OpenHands", Color: 214 /* amber */, Hue: 38,
	Homes: []adapter.Home{
		// The CLI's rule (openhands_cli/locations.py): OPENHANDS_CONVERSATIONS_DIR,
		// else <OPENHANDS_PERSISTENCE_DIR or ~/.openhands>/conversations.
		{What: "OpenHands' conversations directory", Flag: "openhands-dir", From: []adapter.Place{
			{Var: "OPENHANDS_CONVERSATIONS_DIR"}, {Var: "OPENHANDS_PERSISTENCE_DIR", Path: "conversations"},
			{Under: adapter.UnderHome, Path: ".openhands/conversations"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Dir: d.Get("")}) },
}
