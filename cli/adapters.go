package cli

import (
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/normalize"
)

// homeFlags are the agents' home flags (--claude-dir, …), one per Home
// with a flag in the agents' descriptors, as cobra fills them.
type homeFlags struct {
	one  map[string]*string
	many map[string]*[]string
}

// add declares every agent's home flags on f, with the help its
// descriptor says.
func (h *homeFlags) add(f *pflag.FlagSet) {
	h.one, h.many = map[string]*string{}, map[string]*[]string{}
	for _, d := range agents.All {
		for _, home := range d.Homes {
			switch {
			case home.Flag == "":
			case home.Every:
				h.many[home.Flag] = f.StringSlice(home.Flag, nil, d.Usage(home))
			default:
				h.one[home.Flag] = f.String(home.Flag, "", d.Usage(home))
			}
		}
	}
}

// values are the home flags given (a flag given empty is not).
func (h *homeFlags) values() adapter.Flags {
	out := adapter.Flags{}
	for name, v := range h.one {
		if v != nil && *v != "" {
			out[name] = []string{*v}
		}
	}
	for name, v := range h.many {
		if v != nil && len(*v) > 0 {
			out[name] = *v
		}
	}
	return out
}

// dirs are agent d's homes, resolved in one place from the flags and Env:
// a flag wins, then the agent's own variables, then its place under the
// home folder — each agent's own rule (its descriptor's), so Tally looks
// where the agent writes. Adapters take the result and never read the
// environment themselves.
func (a *app) dirs(d *adapter.Descriptor) adapter.Dirs {
	return d.Dirs(adapter.Env{Getenv: a.env.Getenv, Home: a.env.Home, Dir: a.env.Dir}, a.g.Homes.values())
}

// adapters builds one adapter per agent Tally reads.
func (a *app) adapters() []tally.Adapter {
	out := make([]tally.Adapter, 0, len(agents.All))
	for _, d := range agents.All {
		out = append(out, d.New(a.dirs(d)))
	}
	return out
}

// streamAdapters are the adapters a pipe can be read with (normalize,
// follow), by agent name: those that read lines and can tell their format
// from a stream. An agent that keeps only a database (Crush) is not among
// them.
func (a *app) streamAdapters() map[string]tally.StreamReader {
	m := make(map[string]tally.StreamReader)
	for _, ad := range a.adapters() {
		if sr, ok := ad.(tally.StreamReader); ok {
			m[ad.Agent().String()] = sr
		}
	}
	return m
}

// streamAgents is what a stream command's --agent accepts: auto, then the
// stream adapters' names.
func (a *app) streamAgents() []string {
	return append([]string{normalize.AgentAuto}, slices.Sorted(maps.Keys(a.streamAdapters()))...)
}

// storedAgents is what sessions --agent accepts: every agent whose
// sessions the store may hold — each adapter's, and tally for the task
// lists tally mcp keeps.
func storedAgents() []string {
	names := []string{agents.Tally.Agent.String()}
	for _, d := range agents.All {
		names = append(names, d.Agent.String())
	}
	slices.Sort(names)
	return names
}

// agentLabels are the agents Tally reads as people name them, as one
// phrase: "Claude Code, Codex, … and ACP agents".
func agentLabels() string {
	labels := make([]string, 0, len(agents.All))
	for _, d := range agents.All {
		labels = append(labels, d.Label)
	}
	if len(labels) < 2 {
		return strings.Join(labels, "")
	}
	return strings.Join(labels[:len(labels)-1], ", ") + " and " + labels[len(labels)-1]
}
