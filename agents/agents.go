package agents

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/acp"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/cline"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/copilot"
	"github.com/tallyhq/tally/adapter/crush"
	"github.com/tallyhq/tally/adapter/cursor"
	"github.com/tallyhq/tally/adapter/droid"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/goose"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/adapter/kilo"
	"github.com/tallyhq/tally/adapter/kimi"
	"github.com/tallyhq/tally/adapter/openclaw"
	"github.com/tallyhq/tally/adapter/opencode"
	"github.com/tallyhq/tally/adapter/openhands"
	"github.com/tallyhq/tally/adapter/qwen"
	"github.com/tallyhq/tally/adapter/roo"
)

// All are the agents whose files Tally reads, in the order the help names
// them and their homes are read.
var All = []*adapter.Descriptor{
	&claude.Descriptor,
	&codex.Descriptor,
	&gemini.Descriptor,
	&hermes.Descriptor,
	&opencode.Descriptor,
	&crush.Descriptor,
	&goose.Descriptor,
	&acp.Descriptor,
	&droid.Descriptor,
	&kilo.Descriptor,
	&cline.Descriptor,
	&cursor.Descriptor,
	&kimi.Descriptor,
	&openhands.Descriptor,
	&roo.Descriptor,
	&openclaw.Descriptor,
	&copilot.Descriptor,
	&qwen.Descriptor,
}

// Tally is the agent of Tally's own task lists (tally mcp): sessions of
// the store, read from no agent's files.
var Tally = &adapter.Descriptor{Agent: tally.AgentTally, Label: "Tally", Color: 37 /* teal */, Hue: 48}

// Find is the descriptor of agent a, Tally's own included; nil for an
// agent this build does not know (a session pushed by a newer tally).
func Find(a tally.Agent) *adapter.Descriptor {
	if a == Tally.Agent {
		return Tally
	}
	for _, d := range All {
		if d.Agent == a {
			return d
		}
	}
	return nil
}

// Vars are the environment variables through which any agent's files, or
// the session it runs, are found.
func Vars() []string {
	var out []string
	for _, d := range All {
		out = append(out, d.Vars()...)
	}
	return out
}
