// Package agents is the one list of the agents Tally knows: one line
// each, naming the agent's descriptor (adapter.Descriptor), from which
// every other package takes what it needs of an agent — the command
// line's flags and --agent values, tally hook and tally setup, the
// terminal's colours, the page's hues, normalize's names, the tests'
// environment.
//
// What it promises:
//   - Registering an agent is one line of All; nothing else names it.
//   - Each agent is one of its kind: its name, label, colour, hue, flags
//     and variables are its own (the test of this package checks it), and
//     its adapter says it reads that agent.
//   - Tally's own task lists have a descriptor too (Tally), with no
//     adapter: they are sessions of the store, not of an agent's files.
package agents
