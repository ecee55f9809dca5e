// Package cli is Tally's command line: the commands (scan, sessions, show,
// watch, and the live overview of a bare `tally`) and the plain-text
// rendering they share.
//
// It promises output that fits pipes as well as terminals: colour, progress
// bars, truncation to the screen and cursor movement happen only when the
// stream is a terminal (and NO_COLOR is unset); every listing has a --json
// form in the shared tally.Session shape; and the exit status says what
// kind of failure happened (see ExitCode).
//
// It is shaped like cli/cli (gh): each command is an options struct plus a
// plain run function, and everything a command takes from the process —
// streams, terminal facts, environment, clock, the store — comes in through
// Env, so tests call run with buffers and a fixed clock. Rendering is a set
// of pure functions (RenderSessions, RenderShow, RenderChange,
// RenderSummary) checked by golden files in testdata/ (go test -update
// rewrites them; read the diff like code); they draw with package
// termstyle, which the other terminal surfaces share. Errors reach the
// user once, in run: the exit status from one table (exitCodes), the
// message without the domain's operation names unless --verbose.
//
// What a command takes of an agent (its directory flags and their help,
// the rules that resolve them, the --agent values, the help's first
// sentence, tally hook's and tally setup's agents) comes from the agents'
// descriptors (package agents; adapters.go). Every command that indexes
// builds one composition root, once (live.go: newLive — the indexer, the
// planner, the notifier), and goes live through it. The hooks' answers
// are package hookservice's; this package gives it flags and settings.
package cli
