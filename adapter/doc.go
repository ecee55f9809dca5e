// Package adapter describes agents: each adapter package (adapter/claude,
// adapter/codex, …) exports one Descriptor — the agent's name and label,
// its colours, its homes with the flag and variables that move them, how
// its adapter is built, and what Tally does for it beyond reading (the
// hook format it answers, the settings tally setup edits) — and package
// agents lists them, one line each.
//
// Everything else takes an agent's facts from there: the command line its
// directory flags, their help, the rules that resolve them and the
// --agent values; the terminal and the page its colours; normalize its
// name in unified events; tally hook and tally setup the agents they
// serve; the tests' environment the variables to keep out. So adding an
// agent is its own folder and one line of agents.
//
// What it promises:
//   - A home is found by the agent's own rule, read from data: the flag,
//     else the first place set (a variable's value, a folder under the
//     home folder or the working folder, a path below it; or, for a rule
//     data cannot say, what a function reads, named for the help). The help
//     says the rule from the same data, so it cannot drift from what is
//     done.
//   - What an agent's adapter reads (lines, streams, databases,
//     directories) is told by the interfaces its type implements (Reads),
//     never declared a second time.
//   - Nothing here reads the process: Env is given.
package adapter
