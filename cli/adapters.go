package cli

import (
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// adapters builds one adapter per agent Tally reads. Adding an agent is one
// line here (and its home flag in globalOptions).
func adapters(g globalOptions) []tally.Adapter {
	return []tally.Adapter{
		claude.New(claude.Options{ConfigDir: g.ClaudeDir}),
	}
}
