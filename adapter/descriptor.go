package adapter

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/setup"
)

// Descriptor is everything Tally knows of one agent besides how its files
// are read: what it is called and drawn in, where it keeps its files and
// what moves them, and what Tally does for it beyond reading (hooks,
// setup). Each adapter package exports one (its Descriptor variable);
// package agents lists them.
type Descriptor struct {
	// Agent is the name its sessions are stored and shown under.
	Agent tally.Agent
	// Label is the agent as people name it ("Claude Code"): in the help's
	// first sentence and the README.
	Label string
	// Color is its colour on a terminal, a 256-colour index; Hue its hue
	// on the page (0–359). Each agent has its own.
	Color uint8
	Hue   uint16
	// Homes are where it keeps its files, each found by the agent's own
	// rule (see Home); the first is its main home. None: it keeps no
	// files Tally finds (a stream only, as ACP).
	Homes []Home
	// New builds its adapter over the homes as resolved: an adapter never
	// reads the environment itself. nil for an agent with no adapter
	// (Tally's own task lists).
	New func(Dirs) tally.Adapter
	// EventType is its name in normalize's unified events ("claude-code"),
	// "" to use Agent.
	EventType string
	// Hooks, when set, is how `tally hook AGENT` answers its hooks.
	Hooks *hook.Spec
	// Setup, when set, is what `tally setup AGENT` edits: its settings,
	// in the folders its homes resolved to.
	Setup func(Dirs) setup.Target
}

// Reads are the capabilities of an agent's adapter: which shapes of
// sessions it reads (tally.LineReader, StreamReader, DatabaseReader,
// DirectoryReader).
type Reads uint8

const (
	ReadsLines Reads = 1 << iota
	ReadsStreams
	ReadsDatabases
	ReadsDirectories
)

// Has tells whether r holds every capability of c.
func (r Reads) Has(c Reads) bool { return r&c == c }

// Reads tells what the agent's adapter reads, from the interfaces it
// implements: the adapter's type is where that is said.
func (d *Descriptor) Reads() Reads {
	if d.New == nil {
		return 0
	}
	return ReadsOf(d.New(Dirs{}))
}

// ReadsOf tells what a reads.
func ReadsOf(a tally.Adapter) Reads {
	var r Reads
	if _, ok := a.(tally.LineReader); ok {
		r |= ReadsLines
	}
	if _, ok := a.(tally.StreamReader); ok {
		r |= ReadsStreams
	}
	if _, ok := a.(tally.DatabaseReader); ok {
		r |= ReadsDatabases
	}
	if _, ok := a.(tally.DirectoryReader); ok {
		r |= ReadsDirectories
	}
	return r
}

// EventName is the agent's name in a unified event.
func (d *Descriptor) EventName() string {
	if d.EventType != "" {
		return d.EventType
	}
	return string(d.Agent)
}

// Vars are the environment variables through which the agent's files, or
// the session it runs, are found: its homes', and its hooks' session
// variable.
func (d *Descriptor) Vars() []string {
	var out []string
	for _, h := range d.Homes {
		for _, p := range h.From {
			if p.Var != "" {
				out = append(out, p.Var)
			}
		}
	}
	if d.Hooks != nil && d.Hooks.SessionEnv != "" {
		out = append(out, d.Hooks.SessionEnv)
	}
	return out
}
