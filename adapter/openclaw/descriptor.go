package openclaw

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "openclaw"

// Descriptor is OpenClaw as Tally knows it: its state folder, found as
// OpenClaw finds it (resolveStateDir: OPENCLAW_STATE_DIR, else .openclaw
// under OPENCLAW_HOME or the home folder).
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "OpenClaw", Color: 203 /* coral */, Hue: 8,
	Homes: []adapter.Home{
		{What: "OpenClaw's state directory", Flag: "openclaw-dir",
			From: []adapter.Place{{Var: "OPENCLAW_STATE_DIR"}, {Var: "OPENCLAW_HOME", Path: ".openclaw"}, {Under: adapter.UnderHome, Path: ".openclaw"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Root: d.Get("")}) },
}
