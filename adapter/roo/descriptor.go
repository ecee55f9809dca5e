package roo

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
)

// Agent is the name sessions read by this adapter are shown under.
const Agent tally.Agent = "roo"

// Descriptor is Roo Code (the VS Code extension) as Tally knows it.
var Descriptor = adapter.Descriptor{
	Agent: Agent, Label: "Roo Code", Color: 161 /* deep pink */, Hue: 345,
	Homes: []adapter.Home{
		// VS Code's user data on Linux: $XDG_CONFIG_HOME/Code, else
		// ~/.config/Code; the extension's global storage inside it.
		{What: "Roo Code's storage folder (its tasks/ inside)", Flag: "roo-dir", From: []adapter.Place{
			{Var: "XDG_CONFIG_HOME", Path: "Code/User/globalStorage/rooveterinaryinc.roo-cline"},
			{Under: adapter.UnderHome, Path: ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline"}}},
	},
	New: func(d adapter.Dirs) tally.Adapter { return New(Options{Dir: d.Get("")}) },
}
